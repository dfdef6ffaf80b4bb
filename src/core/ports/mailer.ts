/**
 * One message to one person. Both parts are always present: a client that shows no HTML still gets
 * every word and link from the text part.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Outgoing mail (invitations, email verification, password reset): a port so that services never know
 * which server carries it, and tests can receive it for real on loopback.
 */
export interface Mailer {
  /**
   * Resolves once the server has accepted the message. Rejects when it refuses or cannot be reached,
   * in bounded time: a request that waits on it must not hang.
   */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}
