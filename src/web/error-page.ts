import { html } from './html.ts';

/** The small page shown for an unknown short link or a refused request of a page route. */
export function errorPage(status: number, title: string, detail: string): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${status} ${title} · Snip</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}a{color:#0b5fff}</style>
</head>
<body>
<h1>${title}</h1>
<p>${detail}</p>
<p><a href="/">Snip</a></p>
</body>
</html>
`.html;
}
