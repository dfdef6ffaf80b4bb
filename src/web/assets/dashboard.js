// The signed-in pages (dashboard, one link, settings): copy buttons, confirmations in a dialog, menus,
// rows that open their link, and the dashboard's changes to many links at once. Handlers listen on
// the document, so a list replaced after a change works as the first one did. Values are only ever
// set with textContent and properties.
const announcer = document.getElementById('announcer');

/** Says something to screen readers (a polite live region in every page's frame). */
function announce(text) {
  if (!announcer) return;
  announcer.textContent = '';
  setTimeout(() => {
    announcer.textContent = text;
  }, 50);
}

// Copy buttons: data-copy-from names the element whose data-copy (else text) is copied. Without
// clipboard access the text is selected instead, so Ctrl+C finishes the job. An icon button shows a
// tick for a moment; a button of words says what happened.
document.addEventListener('click', async (event) => {
  const button = event.target.closest?.('button[data-copy-from]');
  if (!button) return;
  const source = document.getElementById(button.dataset.copyFrom);
  if (!source) return;
  const label = button.querySelector('.copy-label');
  if (!button.querySelector('svg') && button.dataset.label === undefined) {
    button.dataset.label = button.textContent;
  }
  const words = button.dataset.label;
  const show = (text) => {
    if (label) label.textContent = text;
    else if (words !== undefined) button.textContent = text;
  };
  try {
    const text = source.dataset.copy ?? source.textContent;
    await navigator.clipboard.writeText(text);
    button.dataset.copied = 'true';
    show('Copied');
    announce(`Copied ${text} to the clipboard.`);
  } catch {
    const range = document.createRange();
    range.selectNodeContents(source);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    button.dataset.copied = 'selected';
    show('Selected: press Ctrl+C');
    announce('Selected; press Control C to copy.');
  }
  button.classList.add('just-copied');
  clearTimeout(button.copyTimer);
  button.copyTimer = setTimeout(() => {
    button.classList.remove('just-copied');
    show(label ? 'Copy' : words);
  }, 2000);
});

/**
 * Asks in a modal dialog (never the browser's confirm()): the message, Cancel (focused first) and
 * the destructive button. Escape or Cancel answers false. Focus goes back to `returnTo`.
 */
function confirmDialog({ title, message, confirm, returnTo }) {
  let dialog = document.getElementById('confirm-dialog');
  if (!dialog) {
    dialog = document.createElement('dialog');
    dialog.id = 'confirm-dialog';
    dialog.className = 'confirm-dialog';
    dialog.setAttribute('aria-labelledby', 'confirm-title');
    dialog.setAttribute('aria-describedby', 'confirm-message');
    const form = document.createElement('form');
    form.method = 'dialog';
    const heading = document.createElement('h2');
    heading.id = 'confirm-title';
    const text = document.createElement('p');
    text.id = 'confirm-message';
    const actions = document.createElement('div');
    actions.className = 'dialog-actions';
    const cancel = document.createElement('button');
    cancel.className = 'secondary';
    cancel.value = 'cancel';
    cancel.textContent = 'Cancel';
    cancel.autofocus = true;
    cancel.dataset.dialog = 'cancel';
    const ok = document.createElement('button');
    ok.className = 'danger';
    ok.value = 'confirm';
    ok.dataset.dialog = 'confirm';
    actions.append(cancel, ok);
    form.append(heading, text, actions);
    dialog.append(form);
    document.body.append(dialog);
  }
  dialog.querySelector('#confirm-title').textContent = title;
  dialog.querySelector('#confirm-message').textContent = message;
  dialog.querySelector('[data-dialog=confirm]').textContent = confirm;
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => {
        const yes = dialog.returnValue === 'confirm';
        if (!yes && returnTo?.isConnected) returnTo.focus();
        resolve(yes);
      },
      { once: true },
    );
    dialog.showModal();
  });
}

/** The button that opened the popover menu an element is in, if it is in one. */
function invokerOf(element) {
  const menu = element.closest('[popover]');
  return menu ? document.querySelector(`[popovertarget="${CSS.escape(menu.id)}"]`) : null;
}

// Destructive forms ask first, in a dialog; without script they submit directly.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!form.matches('form[data-confirm]')) return;
  if (form.dataset.confirmed === 'true') {
    delete form.dataset.confirmed;
    return;
  }
  event.preventDefault();
  const submitter = event.submitter ?? form.querySelector('button[type=submit], button:not([type])');
  const menu = form.closest('[popover]');
  const returnTo = invokerOf(form) ?? submitter;
  if (menu?.matches(':popover-open')) menu.hidePopover();
  confirmDialog({
    title: form.dataset.confirmTitle ?? 'Are you sure?',
    message: form.dataset.confirm,
    confirm: submitter?.textContent.trim() || 'Confirm',
    returnTo,
  }).then((yes) => {
    if (!yes) return;
    form.dataset.confirmed = 'true';
    form.requestSubmit(submitter?.form === form ? submitter : undefined);
  });
});

// Menus in a disclosure (pages other than the dashboard): one open at a time; Escape closes it
// and gives the focus back to its button.
const menus = [...document.querySelectorAll('details.menu')];
for (const menu of menus) {
  menu.addEventListener('toggle', () => {
    if (!menu.open) return;
    for (const other of menus) if (other !== menu) other.open = false;
  });
  menu.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !menu.open) return;
    menu.open = false;
    menu.querySelector('summary')?.focus();
  });
}

// Menus in a popover (the top layer: no scroll box clips them) are set beside their button, below
// it or, where the screen ends, above it; inside the screen either way. The browser keeps one open,
// closes it on Escape or a click elsewhere; the focus goes back to the button.
const EDGE = 8;
function place(menu) {
  const button = invokerOf(menu);
  if (!button) return;
  const box = button.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  const height = document.documentElement.clientHeight;
  menu.style.margin = '0';
  menu.style.inset = 'auto';
  menu.style.maxHeight = `${height - 2 * EDGE}px`;
  menu.style.maxWidth = `${width - 2 * EDGE}px`;
  const { offsetWidth: w, offsetHeight: h } = menu;
  const left = Math.max(EDGE, Math.min(box.right - w, width - w - EDGE));
  let top = box.bottom + 4;
  if (top + h > height - EDGE) top = box.top - 4 - h;
  top = Math.max(EDGE, Math.min(top, height - h - EDGE));
  menu.style.left = `${left}px`;
  menu.style.top = `${top}px`;
}

let openMenu = null;
document.addEventListener(
  'beforetoggle',
  (event) => {
    if (event.target.matches?.('[data-menu]') && event.newState === 'open') {
      event.target.style.visibility = 'hidden';
    }
  },
  true,
);
document.addEventListener(
  'toggle',
  (event) => {
    const menu = event.target;
    if (!menu.matches?.('[data-menu]')) return;
    if (event.newState === 'open') {
      place(menu);
      menu.style.visibility = '';
      openMenu = menu;
      return;
    }
    if (openMenu === menu) openMenu = null;
    const focus = document.activeElement;
    if (!focus || focus === document.body || menu.contains(focus)) invokerOf(menu)?.focus();
  },
  true,
);
const replace = () => {
  if (openMenu) place(openMenu);
};
addEventListener('resize', replace);
addEventListener('scroll', replace, { capture: true, passive: true });

// A link's row opens its page when clicked anywhere but on a control; the ticking cell ticks.
document.addEventListener('click', (event) => {
  const row = event.target.closest?.('table.links tr[data-code]');
  const href = row?.querySelector('a.short-link')?.href;
  if (!href || event.defaultPrevented || event.button !== 0) return;
  if (event.target.closest('a, button, input, select, textarea, label, form, [popover]')) return;
  const pick = event.target.closest('td.pick');
  if (pick) {
    pick.querySelector('input')?.click();
    return;
  }
  if (getSelection()?.toString()) return;
  if (event.ctrlKey || event.metaKey || event.shiftKey) window.open(href, '_blank', 'noopener');
  else location.assign(href);
});

// The dashboard's changes to many links: tick rows (or all of this page), then delete them, move
// them to a group or add a tag. Each change goes to /w/<slug>/bulk/edit or /bulk/delete (JSON, the
// session's token in _csrf), one request per domain, and for tags one per resulting set of tags:
// a link keeps the tags it has. The report says what became of each link; then the list reloads.
(() => {
  const bar = document.getElementById('bulk-bar');
  if (!bar) return;
  const report = document.getElementById('bulk-report');
  const figure = (n) => n.toLocaleString('en-US');
  const plural = (n, one, many) => `${figure(n)} ${n === 1 ? one : many}`;
  const boxes = () => [...document.querySelectorAll('input[data-pick]')];
  const picked = () => boxes().filter((box) => box.checked);

  function sync() {
    const all = boxes();
    const ticked = all.filter((box) => box.checked);
    bar.querySelector('[data-bulk-count]').textContent = figure(ticked.length);
    bar.hidden = ticked.length === 0;
    const master = document.querySelector('input[data-pick-all]');
    if (master) {
      master.checked = ticked.length > 0 && ticked.length === all.length;
      master.indeterminate = ticked.length > 0 && ticked.length < all.length;
    }
    for (const box of all) box.closest('tr')?.classList.toggle('picked', box.checked);
  }

  document.addEventListener('change', (event) => {
    if (event.target.matches('input[data-pick-all]')) {
      for (const box of boxes()) box.checked = event.target.checked;
      sync();
    } else if (event.target.matches('input[data-pick]')) sync();
  });

  /** The ticked rows: code, domain, tags and how the link reads. */
  const rows = () =>
    picked().map((box) => ({
      code: box.value,
      domain: box.dataset.domain ?? '',
      tags: JSON.parse(box.dataset.tags || '[]'),
      name: box.closest('tr')?.querySelector('.short-url')?.textContent ?? box.value,
    }));

  /** One request's items, or an Error saying in plain words why none came. */
  async function post(path, body) {
    let response;
    try {
      response = await fetch(`${bar.dataset.endpoint}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ _csrf: bar.querySelector('input[name=_csrf]').value, ...body }),
        credentials: 'same-origin',
        redirect: 'manual',
      });
    } catch {
      throw new Error('Snip could not be reached. Check the connection and try again.');
    }
    if (response.type === 'opaqueredirect') {
      throw new Error('Your session has ended. Sign in again in another tab, then try again.');
    }
    const json = (response.headers.get('content-type') ?? '').includes('application/json');
    const answer = json ? await response.json() : undefined;
    if (response.ok && Array.isArray(answer?.items)) return answer.items;
    if (answer?.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
    if (response.status === 403)
      throw new Error('Your role or this page’s session does not allow this. Reload the page.');
    throw new Error('Snip could not do this just now. Try again in a moment.');
  }

  /** Sends the rows in batches (rows that share a key go together), answers each row's outcome. */
  async function send(path, list, keyOf, bodyOf) {
    const batches = new Map();
    for (const row of list) {
      const key = keyOf(row);
      if (!batches.has(key)) batches.set(key, []);
      batches.get(key).push(row);
    }
    const outcomes = [];
    for (const batch of batches.values()) {
      const first = batch[0];
      const body = { codes: batch.map((row) => row.code), ...bodyOf(first) };
      if (first.domain) body.domain = first.domain;
      try {
        const items = await post(path, body);
        for (const item of items) {
          const row = batch[item.index];
          if (!row) continue;
          const problem = item.error;
          outcomes.push({ row, ok: !problem, code: problem?.code, why: problem?.detail || problem?.title });
        }
      } catch (error) {
        for (const row of batch)
          outcomes.push({ row, ok: false, code: error.code ?? 'request', why: error.message });
      }
    }
    return outcomes;
  }

  /** Puts the page's fresh list (and counts) in place of the old, marked data-refresh. */
  async function reload() {
    try {
      const response = await fetch(location.href, { credentials: 'same-origin' });
      if (!response.ok) return;
      const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
      for (const part of fresh.querySelectorAll('[data-refresh][id]')) {
        document.getElementById(part.id)?.replaceWith(document.importNode(part, true));
      }
    } finally {
      sync();
    }
  }

  function show(summary, outcomes, done) {
    const list = report.querySelector('[data-bulk-items]');
    list.replaceChildren(
      ...outcomes.map(({ row, ok, code, why }) => {
        const item = document.createElement('li');
        item.dataset.code = row.code;
        item.dataset.result = ok ? 'done' : 'refused';
        if (!ok) item.dataset.error = code ?? '';
        const name = document.createElement('code');
        name.textContent = row.name;
        item.append(name, ok ? ` ${done}` : ` not changed: ${why ?? 'refused.'}`);
        return item;
      }),
    );
    report.querySelector('[data-bulk-status]').textContent = summary;
    report.dataset.state = outcomes.every((outcome) => outcome.ok) ? 'done' : 'refused';
    report.hidden = false;
    announce(summary);
  }

  async function run(what, done, sending) {
    bar.setAttribute('aria-busy', 'true');
    for (const control of bar.querySelectorAll('button, input, select')) control.disabled = true;
    try {
      const outcomes = await sending();
      const refused = outcomes.filter((outcome) => !outcome.ok).length;
      const changed = outcomes.length - refused;
      const why = refused ? `${figure(refused)} refused, each saying why below` : '';
      const summary =
        changed === 0
          ? `No link ${what}: ${why}.`
          : `${plural(changed, 'link', 'links')} ${what}${why ? `; ${why}` : ''}.`;
      await reload();
      show(summary, outcomes, done);
      report.focus();
    } finally {
      for (const control of bar.querySelectorAll('button, input, select')) control.disabled = false;
      bar.removeAttribute('aria-busy');
    }
  }

  bar.querySelector('form[data-bulk=move]').addEventListener('submit', (event) => {
    event.preventDefault();
    const select = event.target.elements.group;
    const group = select.value === '' ? null : Number(select.value);
    const name = select.selectedOptions[0]?.textContent ?? '';
    const list = rows();
    const where = group === null ? 'out of their group' : `to ${name}`;
    run(`moved ${where}`, group === null ? 'is in no group.' : `is in ${name}.`, () =>
      send(
        'edit',
        list,
        (row) => row.domain,
        () => ({ change: { group } }),
      ),
    );
  });

  bar.querySelector('form[data-bulk=tag]').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = event.target.elements.tag;
    const tag = input.value.trim();
    if (tag === '') return;
    const list = rows().map((row) => ({ ...row, tags: [...new Set([...row.tags, tag])].sort() }));
    run(`tagged “${tag}”`, `is tagged “${tag}”.`, () =>
      send(
        'edit',
        list,
        (row) => `${row.domain} ${JSON.stringify(row.tags)}`,
        (row) => ({ change: { tags: row.tags } }),
      ),
    ).then(() => {
      input.value = '';
    });
  });

  bar.querySelector('button[data-bulk=delete]').addEventListener('click', async (event) => {
    const list = rows();
    const yes = await confirmDialog({
      title: `Delete ${plural(list.length, 'link', 'links')}?`,
      message:
        'Their short URLs stop working at once, and their codes are never given out again. This cannot be undone.',
      confirm: `Delete ${plural(list.length, 'link', 'links')}`,
      returnTo: event.currentTarget,
    });
    if (!yes) return;
    run('deleted', 'is deleted.', () =>
      send(
        'delete',
        list,
        (row) => row.domain,
        () => ({}),
      ),
    );
  });

  // The list shown anew in place (link-list.js): nothing in it is ticked.
  document.addEventListener('links-replaced', sync);

  bar.querySelector('button[data-bulk=clear]').addEventListener('click', () => {
    for (const box of boxes()) box.checked = false;
    sync();
    document.querySelector('input[data-pick-all]')?.focus();
  });

  sync();
})();
