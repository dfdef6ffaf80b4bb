/** Public addresses of a link (docs/api.md §2.2): BASE_URL + "/" + code, and its QR image. */

export function shortUrl(baseUrl: URL, code: string): string {
  return `${baseUrl.href.replace(/\/$/, '')}/${code}`;
}

export function qrCodeUrl(baseUrl: URL, code: string): string {
  return `${baseUrl.href.replace(/\/$/, '')}/qrcode/${code}.png`;
}
