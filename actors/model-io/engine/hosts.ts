// Where an endpoint is: its origin, and whether it is a machine here or a hosted API.

/** `http://host:port/v1` → `http://host:port`. */
export function originOf(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** True for loopback, private networks, `.local` names and single-label hosts (a machine here). */
export function isLocalHost(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host === '::1' || host.endsWith('.local') || host.endsWith('.internal') || host.endsWith('.lan') || !host.includes('.')) return true;
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 100 && b >= 64 && b <= 127) || a === 0;
  }
  return /^(fc|fd|fe80)/i.test(host);
}
