/** What one POST to a receiver came to. */
export interface PostResult {
  ok: boolean;
  startedAt: Date;
  durationMs: number;
  /** Null when no response came. */
  statusCode: number | null;
  /** Why it failed without a usable answer: a timeout, a network error or a redirect. */
  error: string | null;
  /** The first 1 KB of the response body. */
  responseExcerpt: string | null;
}

const EXCERPT_BYTES = 1024;

/**
 * POSTs one delivery. Any 2xx is success; a redirect is a failure and is not followed (the URL the
 * admin registered is the only one that gets the signed body); a receiver slower than `timeoutMs`
 * is a failure, and the timeout covers the response body as well.
 */
export async function postDelivery(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostResult> {
  const startedAt = new Date();
  const elapsed = () => Date.now() - startedAt.getTime();
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const reason = timedOut ? `timeout after ${timeoutMs} ms` : `network error: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, startedAt, durationMs: elapsed(), statusCode: null, error: reason, responseExcerpt: null };
  }
  const responseExcerpt = await excerpt(response);
  const redirect = response.status >= 300 && response.status < 400;
  return {
    ok: response.status >= 200 && response.status < 300,
    startedAt,
    durationMs: elapsed(),
    statusCode: response.status,
    error: redirect ? `redirect to ${response.headers.get('Location') ?? '(no Location)'} not followed` : null,
    responseExcerpt,
  };
}

/** Reads at most EXCERPT_BYTES of the body and drops the rest; null when there is none or it cannot be read. */
async function excerpt(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    return null;
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(Math.min(size, EXCERPT_BYTES));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
    if (offset >= bytes.length) break;
  }
  // A multi-byte character cut at the end becomes U+FFFD rather than an error.
  return new TextDecoder().decode(bytes);
}
