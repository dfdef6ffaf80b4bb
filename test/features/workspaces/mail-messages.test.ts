import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MailMessage } from '../../../src/core/ports/mailer.ts';
import {
  accountExistsMessage,
  invitationMessage,
  passwordResetMessage,
  verificationMessage,
} from '../../../src/features/workspaces/mail/messages.ts';

const HOSTILE = 'Acme <script>alert("x")</script>\r\nBcc: victim@example.test';
const INVITE_URL = 'https://snip.test/invitations/abc?token=t1&x=2';
const EXPIRES = new Date('2026-07-01T09:30:00Z');

const invitation = (workspaceName = 'Acme') =>
  invitationMessage({
    to: 'ada@example.test',
    workspaceName,
    role: 'editor',
    invitedBy: 'Grace',
    url: INVITE_URL,
    expiresAt: EXPIRES,
  });

const MESSAGES: [name: string, message: MailMessage, url: string][] = [
  ['invitation', invitation(), INVITE_URL],
  [
    'verification',
    verificationMessage({ to: 'ada@example.test', url: 'https://snip.test/verify?token=v1' }),
    'https://snip.test/verify?token=v1',
  ],
  [
    'password reset',
    passwordResetMessage({ to: 'ada@example.test', url: 'https://snip.test/reset?token=r1' }),
    'https://snip.test/reset?token=r1',
  ],
  [
    'account exists',
    accountExistsMessage({
      to: 'ada@example.test',
      signInUrl: 'https://snip.test/login',
      resetUrl: 'https://snip.test/password/forgot',
    }),
    'https://snip.test/login',
  ],
];

describe('workspace mail messages', () => {
  for (const [name, message, url] of MESSAGES) {
    it(`puts the ${name} link in the text part and as a link in the HTML part`, () => {
      assert.equal(message.to, 'ada@example.test');
      assert.ok(message.text.includes(url), message.text);
      assert.ok(message.html.includes(`<a href="${url.replaceAll('&', '&#38;')}"`), message.html);
    });

    it(`keeps the ${name} HTML free of images and external assets`, () => {
      assert.doesNotMatch(message.html, /<img|<link|<script|src=/i);
    });
  }

  it('escapes a hostile workspace name in the HTML part', () => {
    const { html } = invitation(HOSTILE);
    assert.doesNotMatch(html, /<script|alert\("/);
    assert.ok(html.includes('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;'), html);
  });

  it('keeps a hostile workspace name on one line of the subject and of the text', () => {
    const { subject, text } = invitation(HOSTILE);
    assert.doesNotMatch(subject, /[\r\n\p{Cc}]/u);
    assert.ok(subject.includes('Bcc: victim@example.test'), 'the name is flattened, not dropped');
    assert.ok(!text.split('\n').some((line) => line.startsWith('Bcc:')), text);
  });

  it('states the role and the expiry of an invitation in both parts', () => {
    const message = invitation();
    for (const part of [message.text, message.html]) {
      assert.match(part, /\beditor\b/);
      assert.match(part, /2026-07-01 09:30 UTC/);
      assert.match(part, /Grace/);
      assert.match(part, /Acme/);
    }
  });

  it('tells an existing account how to sign in and to choose a new password, in both parts', () => {
    const message = accountExistsMessage({
      to: 'ada@example.test',
      signInUrl: 'https://snip.test/login',
      resetUrl: 'https://snip.test/password/forgot',
    });
    assert.ok(message.text.includes('https://snip.test/password/forgot'), message.text);
    assert.ok(message.html.includes('href="https://snip.test/password/forgot"'), message.html);
  });

  it('tells of a password reset that the link lasts one hour, works once, and may be ignored', () => {
    const { text } = passwordResetMessage({
      to: 'ada@example.test',
      url: 'https://snip.test/reset?token=r1',
    });
    assert.match(text, /one hour/);
    assert.match(text, /only once/);
    assert.match(text, /ignore this email/);
  });
});
