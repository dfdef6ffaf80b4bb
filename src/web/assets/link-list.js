// The dashboard's list of links as a workbench. Without script its filters are a GET form and its
// headings and chips are links; with it the list follows the search as one types (a quarter of a
// second after the last key), a choice of filter at once, and a chip or a heading in place: each
// answer replaces the page's parts marked data-refresh, the address follows (replaceState), and
// the count is said politely. An answer older than the latest asked for is dropped. Keys: / goes to
// the search, c to the long URL of the create form (neither while typing in a field).
(() => {
  const announcer = document.getElementById('announcer');
  const DEBOUNCE_MS = 250;

  function announce(text) {
    if (!announcer) return;
    announcer.textContent = '';
    setTimeout(() => {
      announcer.textContent = text;
    }, 50);
  }

  const filterForm = () => document.getElementById('links-filter');

  /** The address the filter form asks for: its fields, the empty ones left out. */
  function addressOf(form) {
    const url = new URL(form.action, location.href);
    for (const [name, value] of new FormData(form)) {
      if (typeof value === 'string' && value.trim() !== '') url.searchParams.append(name, value);
    }
    return url.href;
  }

  function countSaid(total, filtered) {
    const n = Number(total);
    const figure = n.toLocaleString('en-US');
    if (!filtered) return `${figure} ${n === 1 ? 'link' : 'links'} in all.`;
    if (n === 0) return 'No link matches.';
    return n === 1 ? '1 link matches.' : `${figure} links match.`;
  }

  let asked = 0;
  let pending = null;
  let timer = 0;

  /**
   * Shows the list of `url` in place. `withForm` replaces the filter form too (a choice changed what
   * it offers); while one types in the search it stays, so nothing moves under the caret. `focus`
   * picks the element to focus once the new parts are in (the old one is gone with them).
   */
  async function show(url, { withForm = false, focus } = {}) {
    clearTimeout(timer);
    const ticket = ++asked;
    pending?.abort();
    pending = new AbortController();
    const list = document.getElementById('links-list');
    list?.setAttribute('aria-busy', 'true');
    let text;
    try {
      const response = await fetch(url, { credentials: 'same-origin', signal: pending.signal });
      if (!response.ok) throw new Error(String(response.status));
      text = await response.text();
    } catch {
      // A failed or overtaken answer: the next one (or a plain load) shows the list.
      if (ticket === asked) location.assign(url);
      return;
    } finally {
      if (ticket === asked) list?.removeAttribute('aria-busy');
    }
    if (ticket !== asked) return;
    const fresh = new DOMParser().parseFromString(text, 'text/html');
    for (const part of fresh.querySelectorAll('[data-refresh][id]')) {
      if (part.id === 'links-filter' && !withForm) continue;
      document.getElementById(part.id)?.replaceWith(document.importNode(part, true));
    }
    history.replaceState(history.state, '', url);
    document.dispatchEvent(new CustomEvent('links-replaced'));
    focus?.()?.focus();
    const total = document.getElementById('links-total');
    if (total) announce(countSaid(total.dataset.total, fresh.querySelector('#links-chips li') !== null));
  }

  document.addEventListener('input', (event) => {
    if (event.target.id !== 'links-q') return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const form = filterForm();
      if (form) show(addressOf(form));
    }, DEBOUNCE_MS);
  });

  document.addEventListener('change', (event) => {
    const select = event.target.closest?.('form[data-live-list] select[data-auto]');
    if (!select) return;
    const name = select.name;
    show(addressOf(select.form), {
      withForm: true,
      focus: () =>
        filterForm()?.querySelector(`select[name="${CSS.escape(name)}"]`) ?? filterForm()?.elements.q,
    });
  });

  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!form.matches?.('form[data-live-list]')) return;
    event.preventDefault();
    show(addressOf(form), { withForm: true, focus: () => filterForm()?.elements.q });
  });

  // A chip, Clear, a column heading or a page of the list: shown in place, the focus kept near.
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey)
      return;
    const link = event.target.closest?.('#links-chips a, table.links th a[data-sort], #links-list .pager a');
    if (!link) return;
    event.preventDefault();
    const sort = link.dataset.sort;
    show(link.href, {
      withForm: true,
      focus: () =>
        sort
          ? document.querySelector(`table.links th a[data-sort="${CSS.escape(sort)}"]`)
          : (document.querySelector('#links-chips a') ?? filterForm()?.elements.q),
    });
  });

  /** Whether the key was pressed while typing somewhere, where it is the text's. */
  function typing(target) {
    return !!target.closest?.('input, textarea, select, [contenteditable]:not([contenteditable=false])');
  }

  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (typing(event.target) || document.querySelector('dialog[open]')) return;
    const target =
      event.key === '/'
        ? document.getElementById('links-q')
        : event.key === 'c' && !event.shiftKey
          ? document.getElementById('create-url')
          : null;
    if (!target) return;
    event.preventDefault();
    target.focus();
    if (target.id === 'links-q') target.select();
  });
})();
