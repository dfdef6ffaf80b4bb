import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/**
 * A tiny browser over inject(): keeps cookies (name → value, per Set-Cookie), reads the CSRF token a
 * page's forms carry, and posts urlencoded forms. Redirects are not followed, so tests see each 303.
 */
export class PageClient {
  readonly cookies = new Map<string, string>();
  csrf = '';

  readonly app: FastifyInstance;
  readonly address: string;

  constructor(app: FastifyInstance, address = '127.0.0.1') {
    this.app = app;
    this.address = address;
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method: 'GET',
      url,
      headers: { cookie: this.cookieHeader },
      remoteAddress: this.address,
    });
    this.remember(response);
    return response;
  }

  /** Posts the fields; `_csrf` is the last token read from a page unless the fields set it. */
  async post(url: string, fields: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method: 'POST',
      url,
      headers: { cookie: this.cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: this.csrf, ...fields }).toString(),
      remoteAddress: this.address,
    });
    this.remember(response);
    return response;
  }

  /** GET a page and keep the CSRF token of its forms. */
  async open(url: string): Promise<LightMyRequestResponse> {
    const response = await this.get(url);
    const token = /name="_csrf" value="([^"]*)"/.exec(response.body)?.[1];
    if (token !== undefined) this.csrf = token;
    return response;
  }

  async signUp(email: string, password = 'correct horse battery'): Promise<LightMyRequestResponse> {
    await this.open('/signup');
    return this.post('/signup', { email, password });
  }

  async signIn(email: string, password = 'correct horse battery'): Promise<LightMyRequestResponse> {
    await this.open('/login');
    const response = await this.post('/login', { email, password });
    if (response.statusCode === 303) await this.open('/dashboard');
    return response;
  }

  private remember(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies as Array<{
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }>) {
      const expired =
        cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }
}

/** The value of an attribute on the first element that has it, e.g. data-total. */
export function attribute(body: string, name: string): string | undefined {
  return new RegExp(`${name}="([^"]*)"`).exec(body)?.[1];
}

/** Every short code listed in the dashboard's table, in order. */
export function listedCodes(body: string): string[] {
  return [...body.matchAll(/<tr data-code="([0-9A-Za-z]{7})"/g)].map((match) => match[1] ?? '');
}
