import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { smtpMailer, smtpUrlError } from '../../../src/adapters/mail/smtp-mailer.ts';
import { closedPort } from '../../fixtures/closed-port.ts';
import { linkIn, type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.ts';

const FROM = 'snip@snip.test';

describe('smtpMailer', () => {
  let inbox: SmtpInbox;
  before(async () => {
    inbox = await startSmtpInbox();
  });
  after(() => inbox.close());

  it('delivers a message with its sender, recipient, subject, text and HTML', async () => {
    const mailer = smtpMailer({ url: inbox.url, from: `Snip <${FROM}>` });
    try {
      await mailer.send({
        to: 'ada@example.test',
        subject: 'Hello Ada',
        text: 'Plain words https://snip.test/x',
        html: '<p>Rich <a href="https://snip.test/x">words</a></p>',
      });
      const mail = await inbox.next({ to: 'ada@example.test' });
      assert.equal(mail.from, FROM);
      assert.deepEqual(mail.to, ['ada@example.test']);
      assert.equal(mail.subject, 'Hello Ada');
      assert.match(mail.text, /Plain words/);
      assert.equal(linkIn(mail, '/x'), 'https://snip.test/x');
      assert.match(mail.html, /<a href="https:\/\/snip\.test\/x">words<\/a>/);
    } finally {
      await mailer.close();
    }
  });

  it('rejects when nothing listens on the port, without waiting for a timeout', {
    timeout: 15_000,
  }, async () => {
    const mailer = smtpMailer({ url: `smtp://127.0.0.1:${await closedPort()}`, from: FROM });
    try {
      await assert.rejects(
        mailer.send({ to: 'ada@example.test', subject: 's', text: 't', html: '<p>t</p>' }),
        Error,
      );
    } finally {
      await mailer.close();
    }
  });

  it('rejects when the server refuses the recipient', { timeout: 15_000 }, async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      disableReverseLookup: true,
      logger: false,
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('No such user'), { responseCode: 550 }));
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const { port } = refusing.server.address() as AddressInfo;
    const mailer = smtpMailer({ url: `smtp://127.0.0.1:${port}`, from: FROM });
    try {
      await assert.rejects(
        mailer.send({ to: 'nobody@example.test', subject: 's', text: 't', html: '<p>t</p>' }),
        /550|No such user/,
      );
    } finally {
      await mailer.close();
      await new Promise<void>((resolve) => refusing.close(resolve));
    }
  });
});

describe('smtpUrlError', () => {
  it('accepts smtp:// and smtps:// URLs that name a host', () => {
    assert.equal(smtpUrlError('smtp://127.0.0.1:2525'), undefined);
    assert.equal(smtpUrlError('smtps://user:secret@mail.example.test'), undefined);
  });

  it('rejects other schemes, a missing host and text that is no URL, never repeating the value', () => {
    for (const value of ['https://user:secret@mail.example.test', 'smtp://', 'smtp:secret', 'secret']) {
      const error = smtpUrlError(value);
      assert.equal(typeof error, 'string', value);
      assert.doesNotMatch(error ?? '', /secret/);
    }
  });
});
