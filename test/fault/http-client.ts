/** A small client for fault tests against real Snip processes: creates, redirects and a signed-in page session. */

export const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

export interface Answer {
  status: number;
  body: Record<string, string>;
  /** Milliseconds from sending to the whole answer. */
  ms: number;
  retryAfter: string | null;
}

export async function create(base: string, key: string, url: string): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${base}/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ url }),
  });
  const body = (await response.json()) as Record<string, string>;
  return {
    status: response.status,
    body,
    ms: performance.now() - started,
    retryAfter: response.headers.get('retry-after'),
  };
}

/** The status of a browser's GET of a short link (not followed). */
export async function visit(base: string, code: string): Promise<number> {
  const response = await fetch(`${base}/${code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
  await response.arrayBuffer();
  return response.status;
}

/** Asks until `check` holds or `ms` pass; resolves with the milliseconds it took, or rejects. */
export async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A browser's session on one Snip: cookies, the CSRF token of the last page, form posts. */
export class PageSession {
  readonly cookies = new Map<string, string>();
  csrf = '';
  /** The signed-in user's workspace pages, /w/<slug>, learnt from where /dashboard sends them. */
  home = '';

  async request(
    base: string,
    path: string,
    form?: Record<string, string>,
  ): Promise<{ status: number; body: string; location?: string }> {
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    };
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(`${base}${path}`, {
      method: form ? 'POST' : 'GET',
      headers,
      redirect: 'manual',
      body: form ? new URLSearchParams({ _csrf: this.csrf, ...form }).toString() : undefined,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const body = await response.text();
    const token = /name="_csrf" value="([^"]*)"/.exec(body)?.[1];
    if (token !== undefined) this.csrf = token;
    return { status: response.status, body, location: response.headers.get('location') ?? undefined };
  }

  async signIn(base: string, email: string, password: string): Promise<void> {
    await this.request(base, '/login');
    const answer = await this.request(base, '/login', { email, password });
    if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}`);
    const sent = await this.request(base, '/dashboard');
    this.home = sent.location?.split('?')[0] ?? '';
    await this.request(base, this.home);
  }

  /** A page of the signed-in user's workspace: at('/links/abc') is /w/<slug>/links/abc. */
  at(rest = ''): string {
    if (this.home === '') throw new Error('the session has no workspace yet: sign in first');
    return `${this.home}${rest}`;
  }
}
