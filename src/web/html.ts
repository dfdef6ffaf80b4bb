/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Tagged template that escapes every interpolated value; `raw()` marks already-safe markup. */
export interface SafeHtml {
  readonly html: string;
}

export function raw(html: string): SafeHtml {
  return { html };
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const part = Array.isArray(value)
      ? value.map((v) => (isSafe(v) ? v.html : escapeHtml(v))).join('')
      : isSafe(value)
        ? value.html
        : escapeHtml(value ?? '');
    out += part + (strings[i + 1] ?? '');
  });
  return { html: out };
}

function isSafe(value: unknown): value is SafeHtml {
  return typeof value === 'object' && value !== null && 'html' in value && Object.keys(value).length === 1;
}
