// The JSON api of chesstours, as the page uses it. Every call resolves to
// {ok, status, data}; errors carry data.detail, one sentence to show as it is.

export async function get(path, params = {}, signal = undefined) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") query.set(key, String(value));
  }
  let response;
  try {
    response = await fetch(`${path}?${query}`, { signal, headers: { Accept: "application/json" } });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    return { ok: false, status: 0, data: { detail: "The server cannot be reached; is chesstours serve still running?" } };
  }
  let data;
  try {
    data = await response.json();
  } catch {
    data = { detail: `The server answered ${response.status} ${response.statusText}.` };
  }
  return { ok: response.ok, status: response.status, data };
}

// Cancels the previous request of the same kind when a new one starts,
// so that a slow answer never overwrites a newer one.
export class Latest {
  constructor() { this.controller = null; }
  async get(path, params) {
    if (this.controller) this.controller.abort();
    this.controller = new AbortController();
    const mine = this.controller;
    try {
      const result = await get(path, params, mine.signal);
      return mine === this.controller ? result : null;
    } catch (error) {
      if (error.name === "AbortError") return null;
      throw error;
    }
  }
  cancel() {
    if (this.controller) this.controller.abort();
    this.controller = null;
  }
}
