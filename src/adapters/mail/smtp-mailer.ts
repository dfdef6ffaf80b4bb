import { createTransport } from 'nodemailer';
import type { Mailer, MailMessage } from '../../core/ports/mailer.ts';

/** Each phase of the SMTP conversation: connecting, the greeting, any silence on the socket. */
const PHASE_TIMEOUT_MS = 10_000;
/** The whole send: a server that trickles its answers must not hold a request past this. */
const SEND_TIMEOUT_MS = 30_000;

/**
 * Why `value` cannot be the SMTP server URL (smtp:// or smtps:// with a host), or undefined when it can.
 * The reason never repeats the value: it may carry a password.
 */
export function smtpUrlError(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return 'must start with smtp:// or smtps://';
  if (!url.hostname) return 'must name a host';
  return undefined;
}

/** A Mailer through the SMTP server at `url`, sending as `from`; one connection per message. */
export function smtpMailer(options: { url: string; from: string }): Mailer {
  const transport = createTransport({
    url: options.url,
    connectionTimeout: PHASE_TIMEOUT_MS,
    greetingTimeout: PHASE_TIMEOUT_MS,
    socketTimeout: PHASE_TIMEOUT_MS,
  });
  return {
    async send({ to, subject, text, html }: MailMessage) {
      // Named fields only: nodemailer would act on any other key (attachments read files, for one).
      const signal = AbortSignal.timeout(SEND_TIMEOUT_MS);
      await transport.sendMail({ from: options.from, to, subject, text, html, signal });
    },
    async close() {
      transport.close();
    },
  };
}
