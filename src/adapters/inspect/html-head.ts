import { Tokenizer } from 'htmlparser2';

/**
 * What a page's markup says of itself: its `<title>` and its `<meta>` tags, read by htmlparser2's
 * streaming tokenizer in one pass — a state machine, so the time is linear in the length of the text
 * whatever the markup. Fetched pages are attacker input: no backtracking expression runs over them,
 * and no tree is kept (a parser's stack of open elements makes every stray end tag a search of it).
 */
export interface HeadFacts {
  /**
   * The raw text of the first `<title>` outside `<svg>` (entities not decoded), or undefined when
   * there is none or its end tag never comes (a title cut off by the read cap counts as absent).
   */
  title: string | undefined;
  /** Attributes of every `<meta>` tag, names lower-cased, in document order; a repeated name keeps its first value. */
  metas: Map<string, string>[];
}

export function headFacts(html: string): HeadFacts {
  const facts: HeadFacts = { title: undefined, metas: [] };
  let svgDepth = 0;
  let tag = '';
  let attributes = new Map<string, string>();
  let attribute = '';
  let value = '';
  // The text of the first <title> while it is read; the first title decides, closed or cut off.
  let reading: string | undefined;
  let titleSeen = false;

  const opened = (selfClosing: boolean) => {
    if (tag === 'svg' && !selfClosing) svgDepth++;
    else if (tag === 'meta') facts.metas.push(attributes);
    else if (tag === 'title' && svgDepth === 0 && !titleSeen && !selfClosing) {
      reading = '';
      titleSeen = true;
    }
  };

  const tokenizer = new Tokenizer(
    { xmlMode: false, decodeEntities: false },
    {
      onopentagname(start, end) {
        tag = html.slice(start, end).toLowerCase();
        attributes = new Map();
      },
      onattribname(start, end) {
        attribute = html.slice(start, end).toLowerCase();
        value = '';
      },
      onattribdata(start, end) {
        value += html.slice(start, end);
      },
      onattribend() {
        if (!attributes.has(attribute)) attributes.set(attribute, value);
      },
      onopentagend: () => opened(false),
      onselfclosingtag: () => opened(true),
      ontext(start, end) {
        if (reading !== undefined) reading += html.slice(start, end);
      },
      onclosetag(start, end) {
        const name = html.slice(start, end).toLowerCase();
        if (name === 'svg') svgDepth = Math.max(0, svgDepth - 1);
        else if (name === 'title' && reading !== undefined) {
          facts.title = reading;
          reading = undefined;
        }
      },
      onattribentity() {},
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onend() {},
      onprocessinginstruction() {},
      ontextentity() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  return facts;
}
