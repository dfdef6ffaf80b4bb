// The A/B test rows of the link page's edit panel: each weight slider shows its per cent, and the
// total of the rows with a URL is kept beside them (the server checks it is 100). Only textContent.
(() => {
  for (const fieldset of document.querySelectorAll('fieldset.variants')) {
    const sliders = [...fieldset.querySelectorAll('[data-variant-weight]')];
    const total = fieldset.querySelector('[data-variant-sum] output');
    const update = () => {
      let sum = 0;
      for (const slider of sliders) {
        const out = slider.parentElement?.querySelector('output');
        if (out) out.textContent = `${slider.value}%`;
        const url = slider.closest('li')?.querySelector('input[type="text"]');
        if (url && url.value.trim() !== '') sum += Number(slider.value);
      }
      if (total) total.textContent = `${sum}%`;
      fieldset.toggleAttribute('data-off', sum !== 100);
    };
    fieldset.addEventListener('input', update);
    update();
  }
})();
