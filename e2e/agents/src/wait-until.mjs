/** Polls `check` (sync or async) every 250 ms until it holds; throws `message()` after `ms`. */
export async function waitUntil(check, message, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(message());
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
