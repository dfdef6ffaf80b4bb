// What the landing box and the tester share (loaded before either): the scheme a typed URL is
// assumed to have, and a refusal said in a sentence, handed to the page's own script as
// globalThis.demoInput.

// Inside a function: the page's script names them itself, so they must not be globals.
globalThis.demoInput = (() => {
  // A URL typed without a scheme whose rest is a host gets https:// (docs/api.md §18), as the
  // dashboard's forms do (core/url-input.ts withAssumedScheme); `localhost`, `foo` or `javascript:…`
  // are sent as typed, for the API to refuse.
  function withAssumedScheme(typed) {
    const url = String(typed ?? '').trim();
    if (url === '' || /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(url) || /^[/\\]/.test(url)) return typed;
    let host;
    try {
      host = new URL(`https://${url}`).hostname;
    } catch {
      return typed;
    }
    if (/[@\s]/.test(url.split(/[/?#]/)[0])) return typed;
    const ip = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
    if (ip) return ip.slice(1).every((part) => Number(part) <= 255) ? `https://${url}` : typed;
    const labels = host.replace(/\.$/, '').split('.');
    const top = labels.at(-1) ?? '';
    const ok =
      labels.length >= 2 &&
      labels.every((label) => /^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(label)) &&
      /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(top);
    return ok ? `https://${url}` : typed;
  }

  // A refusal in a sentence: a URL of the wrong shape by its cause, else the plain sentence of its code.
  function sentenceOf(data, body) {
    const fault = body.error === '300' ? data.urlFaults?.[body.message] : undefined;
    return fault ?? data.errors[body.error]?.plain ?? body.message;
  }

  return { withAssumedScheme, sentenceOf };
})();
