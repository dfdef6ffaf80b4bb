import type { FetchFailure } from '../../core/ports/inspector.ts';
import { BlockedAddressError } from './blocked-address-error.ts';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA', 'ETIMEOUT']);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(GET|VERIFY)_)/;

/** The words a client sees for each cause: no address, no host's resolved IP, no library text. */
const REASONS: Readonly<Record<FetchFailure, string>> = {
  blocked: 'the target resolves to a non-public address',
  dns: 'the host name could not be resolved',
  refused: 'the connection was refused',
  reset: 'the connection was reset',
  tls: 'the TLS handshake failed',
  timeout: 'timed out',
  redirect: 'the redirects could not be followed',
  status: 'the target answered an error status',
  failed: 'the connection failed',
};

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function causeOf(error: unknown): FetchFailure {
  // undici often wraps the socket error in `cause`.
  const cause = (error as { cause?: unknown } | null)?.cause;
  for (const candidate of [error, cause]) {
    if (candidate instanceof BlockedAddressError) return 'blocked';
    const code = errorCode(candidate);
    if (code === undefined) continue;
    if (DNS_CODES.has(code)) return 'dns';
    if (code === 'ECONNREFUSED') return 'refused';
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'reset';
    if (TLS_CODE.test(code)) return 'tls';
    if (code.startsWith('UND_ERR_') && code.includes('TIMEOUT')) return 'timeout';
  }
  return 'failed';
}

/** Why a fetch failed: a cause for logs and tests, and the reason a client may read. */
export function describeTransportError(error: unknown): { cause: FetchFailure; reason: string } {
  const cause = causeOf(error);
  return { cause, reason: REASONS[cause] };
}
