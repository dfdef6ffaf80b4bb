// The stats page's "Live" panel: a Server-Sent Events stream of the workspace's clicks, opened when
// the user starts it and closed when they stop it or leave. Values are only ever set with
// textContent, never as markup. The stream ends after SSE_MAX_SECONDS; EventSource comes back by
// itself, and a refusal (too many streams) shows in the status line.
const panel = document.querySelector('[data-live-source]');
const SHOWN = 20;

if (panel) {
  const toggle = panel.querySelector('[data-live-toggle]');
  const status = panel.querySelector('[data-live-status]');
  const list = panel.querySelector('[data-live-list]');
  const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  let source;
  let seen = 0;

  const say = (text) => {
    status.textContent = text;
  };

  const part = (className, text) => {
    const span = document.createElement('span');
    span.className = className;
    span.textContent = text;
    return span;
  };

  const show = (click) => {
    const item = document.createElement('li');
    item.className = 'live-click';
    item.dataset.code = click.code;
    const at = document.createElement('time');
    at.dateTime = click.at;
    at.textContent = time.format(new Date(click.at));
    item.append(
      at,
      part('live-link', `${click.domain}/${click.code}`),
      part('live-facts', [click.country, click.device, click.browser, click.os].join(' · ')),
      part('live-from', click.source === 'qr' ? 'QR code' : click.referrer),
    );
    list.prepend(item);
    while (list.children.length > SHOWN) list.lastElementChild.remove();
    seen += 1;
    say(`Watching: ${seen} ${seen === 1 ? 'click' : 'clicks'} so far.`);
  };

  const stop = () => {
    source?.close();
    source = undefined;
    toggle.textContent = 'Watch live';
    toggle.setAttribute('aria-pressed', 'false');
    panel.dataset.state = 'stopped';
  };

  const start = () => {
    source = new EventSource(panel.dataset.liveSource);
    toggle.textContent = 'Stop';
    toggle.setAttribute('aria-pressed', 'true');
    panel.dataset.state = 'connecting';
    say('Connecting…');
    source.addEventListener('open', () => {
      panel.dataset.state = 'open';
      say(seen === 0 ? 'Watching: no clicks yet.' : `Watching: ${seen} clicks so far.`);
    });
    source.addEventListener('click', (event) => show(JSON.parse(event.data)));
    source.addEventListener('dropped', (event) => {
      say(`Some clicks were skipped (${JSON.parse(event.data).clicks}): they came faster than shown.`);
    });
    source.addEventListener('error', () => {
      if (source?.readyState === EventSource.CLOSED) {
        stop();
        say('The live view could not be opened: too many are open for this workspace, or you signed out.');
      } else if (source) {
        panel.dataset.state = 'connecting';
        say('Reconnecting…');
      }
    });
  };

  toggle.addEventListener('click', () => (source ? stop() : start()));
  window.addEventListener('pagehide', stop);
}
