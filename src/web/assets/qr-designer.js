// The QR designer of a link's page: the preview and both downloads follow the size, margin, colours
// and error correction chosen. The image route draws them; it uses black on white for a pair of
// colours under 3:1, which the warning here says before anyone prints it.
(() => {
  /** WCAG 2 relative luminance of `#rrggbb`. */
  function luminance(colour) {
    const [r, g, b] = [1, 3, 5].map((at) => {
      const channel = Number.parseInt(colour.slice(at, at + 2), 16) / 255;
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }

  /** WCAG 2 contrast ratio, 1 to 21. */
  function contrast(a, b) {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light + 0.05) / (dark + 0.05);
  }

  for (const designer of document.querySelectorAll('fieldset[data-qr-designer]')) {
    const section = designer.closest('section') ?? document;
    const preview = section.querySelector('img[data-qr-preview]');
    const downloads = [...section.querySelectorAll('a[data-qr-download]')];
    const sizeLabel = section.querySelector('[data-qr-size]');
    const warning = designer.querySelector('[data-contrast-warning]');
    const field = (name) => designer.querySelector(`[name=qr_${name}]`);
    const base = designer.dataset.qrBase;
    const minimum = Number(designer.dataset.minContrast);
    const good = { size: field('size').value, margin: field('margin').value };

    /** A number field's value; while it is out of range, its last good one (and the error shown). */
    function number(name) {
      const input = field(name);
      const error = designer.querySelector(`[data-qr-error=${name}]`);
      const ok = input.value !== '' && input.checkValidity();
      error.hidden = ok;
      input.setAttribute('aria-invalid', String(!ok));
      if (ok) good[name] = String(Number(input.value));
      return good[name];
    }

    function update() {
      const fg = field('fg').value;
      const bg = field('bg').value;
      const ratio = contrast(fg, bg);
      const low = ratio < minimum;
      warning.hidden = !low;
      warning.textContent = low
        ? `These colours have a contrast of ${ratio.toFixed(2)}:1; scanners need at least ${minimum}:1, so the image is drawn black on white until they differ more.`
        : '';
      const query = new URLSearchParams();
      if (designer.dataset.qrDomain) query.set('domain', designer.dataset.qrDomain);
      const size = number('size');
      query.set('size', size);
      query.set('margin', number('margin'));
      query.set('fg', fg.replace('#', ''));
      query.set('bg', bg.replace('#', ''));
      query.set('ecc', field('ecc').value);
      const text = query.toString();
      if (preview) preview.src = `${base}.svg?${text}`;
      for (const link of downloads) link.href = `${base}.${link.dataset.qrDownload}?${text}`;
      if (sizeLabel) sizeLabel.textContent = size;
    }

    designer.addEventListener('input', update);
    designer.addEventListener('change', update);
  }
})();
