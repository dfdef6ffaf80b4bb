import { BlockedAddressError } from './blocked-address-error.ts';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA', 'ETIMEOUT']);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(GET|VERIFY)_)/;

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A short, log-friendly reason for a failed fetch; undici often wraps the socket error in `cause`. */
export function describeTransportError(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  for (const candidate of [error, cause]) {
    if (candidate instanceof BlockedAddressError) return `refused: ${candidate.message}`;
    const code = errorCode(candidate);
    if (code === undefined) continue;
    if (DNS_CODES.has(code)) return `DNS lookup failed (${code})`;
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
    if (TLS_CODE.test(code)) return `TLS error (${code})`;
    if (code.startsWith('UND_ERR_') && code.includes('TIMEOUT')) return 'timed out';
  }
  const message = error instanceof Error ? error.message : String(error);
  return `fetch failed: ${message}`;
}
