// The campaign fields of a link's create and edit forms: the final URL of the UTM builder and the
// card a chat shows, as they are typed. The server writes the UTM values in itself (the fields are
// sent, not this preview). Values are only ever set with textContent and properties.
(() => {
  const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'];

  /** The name of a raw query parameter (`a%20b=c` → `a b`), or the raw text when it does not decode. */
  function nameOf(parameter) {
    const raw = parameter.split('=', 1)[0] ?? '';
    try {
      return decodeURIComponent(raw.replace(/\+/g, ' '));
    } catch {
      return raw;
    }
  }

  // The rules of core/link-campaign.ts withUtm(): a key already in the query is replaced where it
  // stands (its repeats dropped), a new one appended in the order of UTM_KEYS, '' removes the key;
  // every other parameter and the fragment are kept byte for byte.
  function withUtm(url, utm) {
    const hashAt = url.indexOf('#');
    const fragment = hashAt === -1 ? '' : url.slice(hashAt);
    const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
    const queryAt = beforeHash.indexOf('?');
    const base = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
    const query = queryAt === -1 ? '' : beforeHash.slice(queryAt + 1);
    const pending = new Map();
    for (const key of UTM_KEYS) if (utm[key] !== undefined) pending.set(`utm_${key}`, utm[key]);
    const written = new Set();
    const parts = [];
    for (const parameter of query === '' ? [] : query.split('&')) {
      const name = nameOf(parameter);
      const value = pending.get(name);
      if (value === undefined) {
        parts.push(parameter);
        continue;
      }
      if (written.has(name)) continue;
      written.add(name);
      if (value !== '') parts.push(`${name}=${encodeURIComponent(value)}`);
    }
    for (const [name, value] of pending) {
      if (!written.has(name) && value !== '') parts.push(`${name}=${encodeURIComponent(value)}`);
    }
    return `${base}${parts.length > 0 ? `?${parts.join('&')}` : ''}${fragment}`;
  }

  // The UTM builder: a field counts once it differs from where it started (data-base), as the server
  // reads it; the preview is what the service will store.
  for (const fieldset of document.querySelectorAll('fieldset[data-utm]')) {
    const url = fieldset.closest('form')?.querySelector('input[name=url]');
    const output = fieldset.querySelector('[data-final-url]');
    const inputs = [...fieldset.querySelectorAll('input[data-utm-key]')];
    if (!url || !output) continue;
    const update = () => {
      const utm = {};
      for (const input of inputs) {
        const value = input.value.trim();
        if (value !== (input.dataset.base ?? '').trim()) utm[input.dataset.utmKey] = value;
      }
      const typed = url.value.trim();
      output.textContent = typed === '' ? output.dataset.empty : withUtm(typed, utm);
    };
    url.addEventListener('input', update);
    for (const input of inputs) input.addEventListener('input', update);
    update();
  }

  /**
   * The card's image, made when first needed (a page without one has no <img>); an image that does
   * not load is left out, as chats leave it out.
   */
  function cardImage(card) {
    const box = card.querySelector('.chat-card-image');
    const existing = box.querySelector('img');
    if (existing?.dataset.watched) return existing;
    const image = existing ?? document.createElement('img');
    const broken = card.closest('[data-preview-figure]')?.querySelector('[data-preview-broken]');
    const failed = () => {
      if (!image.getAttribute('src')) return;
      box.hidden = true;
      if (broken) broken.hidden = false;
    };
    image.dataset.watched = 'true';
    image.alt = '';
    image.referrerPolicy = 'no-referrer';
    image.addEventListener('load', () => {
      box.hidden = false;
      if (broken) broken.hidden = true;
    });
    image.addEventListener('error', failed);
    if (existing?.complete && existing.naturalWidth === 0) failed();
    if (!existing) box.append(image);
    return image;
  }

  for (const card of document.querySelectorAll('[data-preview-card]')) {
    if (card.querySelector('.chat-card-image img')) cardImage(card);
  }

  // The preview card: title (or the link's own), description, image and the short URL's host.
  for (const fieldset of document.querySelectorAll('fieldset[data-preview]')) {
    const form = fieldset.closest('form');
    const field = (name) => fieldset.querySelector(`[name=${name}]`);
    const [title, description, image] = ['preview_title', 'preview_description', 'preview_image'].map(field);
    const card = fieldset.querySelector('[data-preview-card]');
    if (!title || !description || !image || !card) continue;
    const part = (name) => card.querySelector(`[data-preview-${name}]`);
    const figure = card.closest('[data-preview-figure]');
    const box = card.querySelector('.chat-card-image');
    const imageError = fieldset.querySelector('[data-image-error]');
    const domain = form?.querySelector('select[name=domain]');
    let timer;
    const showImage = (address) => {
      const img = box.querySelector('img');
      clearTimeout(timer);
      if (address === '') {
        img?.removeAttribute('src');
        box.hidden = true;
        figure.querySelector('[data-preview-broken]').hidden = true;
        return;
      }
      if (img?.getAttribute('src') === address) return;
      // Typed a character at a time: fetched once the typing pauses.
      timer = setTimeout(() => {
        cardImage(card).src = address;
      }, 400);
    };
    const update = () => {
      const [t, d, i] = [title.value.trim(), description.value.trim(), image.value.trim()];
      const none = t === '' && d === '' && i === '';
      card.hidden = none;
      figure.querySelector('[data-preview-empty]').hidden = !none;
      part('title').textContent = t || card.dataset.fallbackTitle;
      part('description').textContent = d;
      part('host').textContent = domain?.value || card.dataset.host;
      const https = /^https:\/\/\S+$/i.test(i);
      const bad = i !== '' && !https;
      if (imageError) imageError.hidden = !bad;
      image.setAttribute('aria-invalid', String(bad));
      showImage(https ? i : '');
    };
    for (const input of [title, description, image]) input.addEventListener('input', update);
    domain?.addEventListener('change', update);
    update();
  }
})();
