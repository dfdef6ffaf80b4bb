// The signed-in pages (dashboard, one link, account): copy buttons, delete confirmations, menus.
// Values are only ever set with textContent.
const announcer = document.getElementById('announcer');

/** Says something to screen readers (a polite live region in every page's frame). */
function announce(text) {
  if (!announcer) return;
  announcer.textContent = '';
  setTimeout(() => {
    announcer.textContent = text;
  }, 50);
}

// Copy buttons: data-copy-from names the element whose text is copied. Without clipboard access the
// text is selected instead, so Ctrl+C finishes the job.
for (const button of document.querySelectorAll('button[data-copy-from]')) {
  const label = button.textContent;
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copyFrom);
    if (!source) return;
    try {
      const text = source.dataset.copy ?? source.textContent;
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
      button.dataset.copied = 'true';
      announce(`Copied ${text} to the clipboard.`);
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      button.textContent = 'Selected: press Ctrl+C';
      button.dataset.copied = 'selected';
      announce('Selected; press Control C to copy.');
    }
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
}

// Destructive forms ask first; without script they submit directly.
for (const form of document.querySelectorAll('form[data-confirm]')) {
  form.addEventListener('submit', (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
}

// One action menu open at a time; Escape closes it and gives the focus back to its button.
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
