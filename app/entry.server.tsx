/**
 * Server rendering entry (React Router's default, revealed to add
 * `handleError`, the CSP nonce and the cache policy): streams the HTML;
 * waits for the whole page for bots and for the render cache.
 *
 * A page rendered for one request gives its inline scripts (React Router's
 * and React's) the request's nonce (`cspNonceContext`), and is marked
 * `Cache-Control: private, no-cache` (a nonce must not be served twice from a
 * shared cache). A page rendered for the render cache (`renderHintsContext`
 * set, server/render-cache.ts) has no nonce and is rendered whole before
 * it is answered: the server allows its inline scripts by hash
 * (`server/security.ts`) and sets its cache headers.
 *
 * Every page's JavaScript (React Router's module preloads and bootstrap
 * script) starts loading after the first contentful paint
 * (`deferHydration`, docs/decisions/010-valid-deferred-hydration.md).
 */
import type { EntryContext, HandleErrorFunction } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isRouteErrorResponse, ServerRouter, type RouterContextProvider } from "react-router";
import type { Logger } from "pino";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { deferHydration } from "~/utils/deferred-hydration.server";
import { errorFields, stackFrames } from "~/db/errors.server";
import { cspNonceContext, loggerContext, renderHintsContext } from "~/context.server";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const forCache = loadContext.get(renderHintsContext) !== null;
  const nonce = forCache ? undefined : loadContext.get(cspNonceContext);
  if (nonce && !responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-cache");

  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, {
      status: responseStatusCode,
      headers: responseHeaders,
    });
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");

    // Ensure requests from bots and SPA Mode renders wait for all content to load before responding
    // https://react.dev/reference/react-dom/server/renderToPipeableStream#waiting-for-all-content-to-load-for-crawlers-and-static-generation
    const readyOption: keyof RenderToPipeableStreamOptions =
      forCache || (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    // Abort the rendering stream after the `streamTimeout` so it has time to
    // flush down the rejected boundaries
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          // The page's JavaScript waits for its first paint (docs/decisions/010-valid-deferred-hydration.md).
          const body = deferHydration(nonce, () => {
            // Clear the timeout to prevent retaining the closure and memory leak
            clearTimeout(timeoutId);
            timeoutId = undefined;
          });
          const stream = createReadableStreamFromReadable(body);

          responseHeaders.set("Content-Type", "text/html; charset=utf-8");

          pipe(body);

          resolve(
            new Response(stream, {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Log streaming rendering errors from inside the shell.  Don't log
          // errors encountered during initial shell rendering since they'll
          // reject and get logged in handleDocumentRequest.
          if (shellRendered) logRenderError(loggerOf(loadContext), error);
        },
      },
    );
  });
}

/**
 * Logs errors thrown while answering a request, except the expected ones:
 * a 404 or 405 (already in the request log) and a request the visitor
 * aborted. On the server the line has the error's kind and codes, not its
 * message (`errorFields`: a message may quote a visitor's field); without a
 * logger (development tools) the whole error is printed for the developer.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && (error.status === 404 || error.status === 405)) return;
  logRenderError(loggerOf(context), error);
};

/**
 * The request's logger, or none when the error came before the server's
 * context was made (read by shape: under Vite, React Router may be another
 * copy than the one that made the context).
 */
function loggerOf(context: unknown): Logger | undefined {
  try {
    return (context as Pick<RouterContextProvider, "get"> | undefined)?.get(loggerContext);
  } catch {
    return undefined;
  }
}

/**
 * One line for an error while answering: its kind, codes and stack frames
 * (`errorFields`, `stackFrames`: never its message, which may quote a
 * visitor's field or a query's parameters); the whole error on the console
 * only where there is no logger (the dev tools).
 */
function logRenderError(logger: Logger | undefined, error: unknown) {
  if (logger) logger.error({ err: errorFields(error), stack: stackFrames(error) }, "request failed");
  else console.error(error);
}
