/** Polls until `check` passes (it throws or returns false until then), or fails after `timeoutMs`. */
export async function waitFor(check: () => boolean | void, timeoutMs = 5000, describe?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (check() !== false) return;
      lastError = new Error(`the condition stayed false${describe ? `; last seen:\n${describe()}` : ''}`);
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw lastError;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
