import { html } from './html.ts';

/** The small page shown for an unknown short link or a refused request of a page route. */
export function errorPage(status: number, title: string, detail: string): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${status} ${title} · Snip</title>
<link rel="stylesheet" href="/assets/snip.css">
</head>
<body>
<main class="hero">
<h1>${title}</h1>
<p>${detail}</p>
<p><a href="/">Snip</a></p>
</main>
</body>
</html>
`.html;
}
