/**
 * A human click as the redirect saw it, held in memory until the next flush (about a second) and
 * there turned into a ClickEvent: the address and user agent never leave this process
 * (docs/api.md §9.2).
 */
export interface RawVisit {
  linkId: number;
  workspaceId: number;
  at: number;
  address: string;
  userAgent: string | undefined;
  referer: string | undefined;
  acceptLanguage: string | undefined;
  /** The country a trusted CDN named (TRUST_PROXY only), else undefined. */
  trustedCountry: string | undefined;
  qr: boolean;
  /** The A/B test's variant the redirect sent the visitor to, 1-4; 0 or absent: the link has no test. */
  variant?: number;
}

/** Numbers kept per visit: link, account, at, address, user agent, referer, language, country|variant|qr. */
const WIDTH = 8;
/** The string index that stands for `undefined`. */
const NONE = 0;

/**
 * The raw visits of one flush as one flat array of numbers over the distinct strings they name.
 * A visit lives about a second, long enough for V8 to move it to the old generation; as an object
 * with its own copies of the request's header strings it made tens of megabytes of old garbage a
 * second under load (docs/adr/022). Here a visit is 8 numbers, and a user agent, referrer, language
 * or address that many visits share is kept once.
 */
export class VisitLog {
  readonly #strings: Array<string | undefined> = [undefined];
  readonly #index = new Map<string, number>();
  /** Outside the JS heap, grown by doubling: a growing JS array was copied and promoted each time. */
  #numbers = new Float64Array(1024 * WIDTH);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(visit: RawVisit): void {
    if ((this.#length + 1) * WIDTH > this.#numbers.length) {
      const bigger = new Float64Array(this.#numbers.length * 2);
      bigger.set(this.#numbers);
      this.#numbers = bigger;
    }
    const at = this.#length++ * WIDTH;
    const numbers = this.#numbers;
    numbers[at] = visit.linkId;
    numbers[at + 1] = visit.workspaceId;
    numbers[at + 2] = visit.at;
    numbers[at + 3] = this.#intern(visit.address);
    numbers[at + 4] = this.#intern(visit.userAgent);
    numbers[at + 5] = this.#intern(visit.referer);
    numbers[at + 6] = this.#intern(visit.acceptLanguage);
    // The trusted country's string index times 16, the variant (0-4) times 2, plus one for a QR visit.
    numbers[at + 7] =
      this.#intern(visit.trustedCountry) * 16 + ((visit.variant ?? 0) & 7) * 2 + (visit.qr ? 1 : 0);
  }

  /** The i-th visit's link, account and time, and its strings as indexes (see `text`). */
  linkId = (i: number) => this.#field(i, 0);
  workspaceId = (i: number) => this.#field(i, 1);
  at = (i: number) => this.#field(i, 2);
  address = (i: number) => this.#field(i, 3);
  userAgent = (i: number) => this.#field(i, 4);
  referer = (i: number) => this.#field(i, 5);
  language = (i: number) => this.#field(i, 6);
  trustedCountry = (i: number) => Math.floor(this.#field(i, 7) / 16);
  variant = (i: number) => Math.floor((this.#field(i, 7) % 16) / 2);
  qr = (i: number) => this.#field(i, 7) % 2 === 1;

  #field(i: number, k: number): number {
    return this.#numbers[i * WIDTH + k] as number;
  }

  /** The string of an index (undefined for none). */
  text(index: number): string | undefined {
    return this.#strings[index];
  }

  /** The i-th visit as an object again. */
  visit(i: number): RawVisit {
    return {
      linkId: this.linkId(i),
      workspaceId: this.workspaceId(i),
      at: this.at(i),
      address: this.text(this.address(i)) ?? '',
      userAgent: this.text(this.userAgent(i)),
      referer: this.text(this.referer(i)),
      acceptLanguage: this.text(this.language(i)),
      trustedCountry: this.text(this.trustedCountry(i)),
      qr: this.qr(i),
      variant: this.variant(i),
    };
  }

  /** The first `count` visits of `first`, then those of `then`, in a new log. */
  static joined(first: VisitLog, count: number, then: VisitLog): VisitLog {
    const log = new VisitLog();
    for (let i = 0; i < Math.min(count, first.length); i++) log.push(first.visit(i));
    for (let i = 0; i < then.length; i++) log.push(then.visit(i));
    return log;
  }

  #intern(text: string | undefined): number {
    if (text === undefined) return NONE;
    let index = this.#index.get(text);
    if (index === undefined) {
      index = this.#strings.length;
      this.#strings.push(text);
      this.#index.set(text, index);
    }
    return index;
  }
}
