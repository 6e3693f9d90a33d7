/**
 * Reads a whole (small) answer body as UTF-8 text, up to `limit` bytes: error bodies and write answers.
 * Beyond the limit the rest is dropped and the read cancelled, so a huge page from a gateway cannot
 * exhaust memory.
 */
export async function readText(response: Response, limit = 1 << 20): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel().catch(() => undefined);
      return text + decoder.decode();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
