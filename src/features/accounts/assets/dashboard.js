// The signed-in pages (dashboard, one link, account): copy buttons, delete confirmations and the
// clicks chart. Values are only ever set with textContent; the chart data comes from #page-data.
const dataElement = document.getElementById('page-data');
const data = dataElement ? JSON.parse(dataElement.textContent) : {};

// Copy buttons: data-copy-from names the element whose text is copied. Without clipboard access the
// text is selected instead, so Ctrl+C finishes the job.
for (const button of document.querySelectorAll('button[data-copy-from]')) {
  const label = button.textContent;
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copyFrom);
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent);
      button.textContent = 'Copied';
      button.dataset.copied = 'true';
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      button.textContent = 'Selected: press Ctrl+C';
      button.dataset.copied = 'selected';
    }
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
}

// Destructive forms ask first; without script they submit directly.
for (const form of document.querySelectorAll('form[data-confirm]')) {
  form.addEventListener('submit', (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
}

// Clicks per UTC day, drawn with uPlot (served from /assets/, no external request).
function drawChart(box, series) {
  const xs = series.days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
  const style = getComputedStyle(document.documentElement);
  const accent = style.getPropertyValue('--accent').trim() || '#0b5fff';
  const size = () => ({ width: Math.max(240, box.clientWidth), height: 220 });
  const chart = new window.uPlot(
    {
      ...size(),
      tzDate: (ts) => window.uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
      axes: [{}, { values: (_u, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? tick : '')) }],
      series: [
        { label: 'Day (UTC)' },
        { label: 'Clicks', stroke: accent, width: 2, fill: `${accent}22`, points: { show: true } },
      ],
      legend: { show: true },
    },
    [xs, series.clicks],
    box,
  );
  box.dataset.drawn = 'true';
  let pending;
  window.addEventListener('resize', () => {
    clearTimeout(pending);
    pending = setTimeout(() => chart.setSize(size()), 100);
  });
}

const chartBox = document.getElementById('chart');
if (chartBox && data.chart && window.uPlot) drawChart(chartBox, data.chart);
