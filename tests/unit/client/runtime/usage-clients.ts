import OpenAI from 'openai'

/** A client for a provider that ignores `stream_options`, so its streams never report usage. */
export function clientWithoutUsage(baseURL: string): OpenAI {
  return new OpenAI({
    baseURL,
    apiKey: 'test',
    maxRetries: 0,
    fetch: (url, init) => {
      const body = JSON.parse(String(init?.body))
      delete body.stream_options
      return fetch(url, { ...init, body: JSON.stringify(body) })
    },
  })
}
