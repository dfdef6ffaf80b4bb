// The API reference (GET /docs): Redoc renders /openapi.json into #redoc in Snip's colours. Redoc
// writes its styles as <style> elements; they carry this answer's nonce, the only inline style the
// page's policy allows. Search is off: it would start a worker from a blob: URL, which the policy
// refuses. The floating menu button is off: nothing on Snip's pages is drawn over the content.
const nonce = document.querySelector('meta[property="csp-nonce"]')?.getAttribute('content') ?? '';
// Read by the bundle's style loader as it starts (see docs-page.ts); Redoc also takes it as an option.
window.__webpack_nonce__ = nonce;

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", sans-serif';
const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

// The light design tokens (src/web/assets/tokens.css). Redoc has no dark mode and fixes some of its
// colours for a light surface, so the reference stays light in both schemes (docs.css). Every pair
// meets WCAG AA contrast; the method badges carry white text.
const THEME = {
  colors: {
    primary: { main: '#1d4ed8', light: '#1d4ed8' },
    success: { main: '#0a6b34' },
    warning: { main: '#8a5300' },
    error: { main: '#b42318' },
    text: { primary: '#161b26', secondary: '#4d5668' },
    border: { dark: '#d9dde5', light: '#ffffff' },
    http: {
      get: '#0a6b34',
      post: '#1d4ed8',
      put: '#6b3fa0',
      patch: '#9a4500',
      delete: '#b42318',
      options: '#4d5668',
      head: '#4d5668',
      basic: '#4d5668',
      link: '#0b6477',
    },
  },
  typography: {
    fontSize: '15px',
    fontFamily: FONT,
    headings: { fontFamily: FONT, fontWeight: '600' },
    code: { fontFamily: MONO, fontSize: '13px', color: '#161b26', backgroundColor: '#eef0f4' },
    links: { color: '#1d4ed8', visited: '#1d4ed8', hover: '#1d4ed8' },
  },
  schema: {
    // Light enough for Redoc's fixed teal of patterns (#0e7c86) to keep 4.5:1 on it.
    nestedBackground: '#f8f9fb',
    typeNameColor: '#4d5668',
    typeTitleColor: '#4d5668',
    requireLabelColor: '#b42318',
    linesColor: '#d9dde5',
  },
  sidebar: { backgroundColor: '#ffffff', textColor: '#161b26', activeTextColor: '#1d4ed8' },
  rightPanel: { backgroundColor: '#161b26', textColor: '#e7eaf0' },
  codeBlock: { backgroundColor: '#0e1118' },
};

const root = document.getElementById('redoc');

document.addEventListener('DOMContentLoaded', () => {
  window.Redoc.init(
    root.dataset.specUrl,
    {
      nonce,
      disableSearch: true,
      hideFab: true,
      hideLoading: true,
      nativeScrollbars: true,
      requiredPropsFirst: true,
      theme: THEME,
    },
    root,
    (error) => {
      root.dataset.state = error ? 'failed' : 'ready';
    },
  );
});
