/** The dashboard's JSON API, as the page reads it: the same parameters the page's URL carries. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function api<T>(path: string, params: URLSearchParams = new URLSearchParams()): Promise<T> {
  const query = params.toString();
  const response = await fetch(query ? `${path}?${query}` : path, { headers: { Accept: 'application/json' } });
  const body = (await response.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
  if (!response.ok) {
    throw new ApiError(
      response.status,
      body?.error?.code ?? 'http_error',
      body?.error?.message ?? `HTTP ${response.status}`,
    );
  }
  return body as T;
}
