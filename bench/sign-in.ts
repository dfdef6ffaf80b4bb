/** Signs in over HTTP as a browser would (the form's CSRF token and cookie), and answers the session cookie. */
export async function sessionCookie(base: string, email: string, password: string): Promise<string> {
  const form = await fetch(`${base}/login`);
  const csrfCookie = form.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
  const token = /name="_csrf" value="([^"]*)"/.exec(await form.text())?.[1] ?? '';
  const answer = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
    body: new URLSearchParams({ _csrf: token, email, password }),
  });
  const session = answer.headers.getSetCookie().find((cookie) => cookie.startsWith('snip_session='));
  if (!session) throw new Error(`signing in as ${email} answered ${answer.status}`);
  return session.split(';')[0] ?? '';
}
