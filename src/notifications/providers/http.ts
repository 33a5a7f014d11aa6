import type { SendResult } from './types';

/** A provider API's answer to one request: its JSON (or text) body, or why there was none. */
export async function callProvider(provider: string, url: string, init: RequestInit, timeoutMs: number, messageId: (body: unknown) => string | null): Promise<SendResult> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return {
      ok: false,
      retryable: true,
      error: `${provider}: ${timedOut ? `timeout after ${timeoutMs} ms` : `network error: ${error instanceof Error ? error.message : String(error)}`}`,
    };
  }
  const text = await response.text().catch(() => '');
  if (response.ok) {
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // A 2xx without JSON is still accepted; it just has no message id.
    }
    return { ok: true, providerMessageId: messageId(body) };
  }
  const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
  return { ok: false, retryable, error: `${provider}: HTTP ${response.status}${text ? `: ${text.slice(0, 300)}` : ''}` };
}

/** Base URL without a trailing slash. */
export const baseUrl = (configured: string | undefined, fallback: string) => (configured || fallback).replace(/\/+$/, '');
