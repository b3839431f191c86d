// POST and GET /graphql straight from node:http into Apollo: no Express on the hot path. Its
// router, body parser, `send` (with an ETag hash per answer) and the integration's adapters were
// about a fifth of a small request's CPU (docs/benchmarks.md). What they did for this path is
// done here: the body read within the size limit and parsed as JSON, the screens that refuse an
// operation before it is parsed (batch size, trusted documents, tokens), and Apollo's answer
// written back as it gives it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import type { Logger } from '../observability/logger.ts';
import { traceServerRequest, tracingEnabled } from '../observability/tracing.ts';
import { ErrorCode } from '../graphql/errors.ts';

/** Why an operation is refused before Apollo sees it: answered 400 with this error. */
export interface HttpRefusal {
  message: string;
  code: string;
}

/** A request's operations as sent: the parsed POST body (one operation or a batch), or a GET's query. */
export interface HttpOperations {
  method: string;
  /** The JSON body of a POST; for a GET, the URL's parameters as an object. */
  payload: unknown;
  authorization: string | undefined;
}

export interface GraphqlHttpOptions<TContext extends BaseContext, TAuth> {
  apollo: ApolloServer<TContext>;
  bodyLimitBytes: number;
  /** The request's credentials, checked once and handed to `screen` and `context`. */
  authenticate(authorization: string | undefined): TAuth;
  /** Runs before Apollo parses anything; a refusal ends the request with a 400. */
  screen(operations: HttpOperations, auth: TAuth): HttpRefusal | null;
  context(req: IncomingMessage, auth: TAuth): Promise<TContext>;
  logger: Logger;
}

export function graphqlHttpHandler<TContext extends BaseContext, TAuth>(
  options: GraphqlHttpOptions<TContext, TAuth>,
): (req: IncomingMessage, res: ServerResponse) => void {
  const run = (req: IncomingMessage, res: ServerResponse) => {
    handle(options, req, res).catch((error: unknown) => {
      options.logger.error({ err: error }, 'GraphQL over HTTP failed outside Apollo');
      if (!res.headersSent) sendErrors(res, 500, 'Internal server error', ErrorCode.INTERNAL_SERVER_ERROR);
      else res.destroy();
    });
  };
  // Tracing is started before the server (src/main.ts), so this is decided once, not per request.
  if (!tracingEnabled()) return run;
  return (req, res) => traceServerRequest(req, res, () => run(req, res));
}

async function handle<TContext extends BaseContext, TAuth>(
  options: GraphqlHttpOptions<TContext, TAuth>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const queryAt = req.url?.indexOf('?') ?? -1;
  const search = queryAt >= 0 ? req.url!.slice(queryAt) : '';
  let body: unknown;
  if (method === 'POST') {
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding !== 'identity') {
      req.resume();
      return sendErrors(
        res,
        415,
        `Content-Encoding ${encoding} is not supported; send the body uncompressed.`,
        ErrorCode.BAD_USER_INPUT,
      );
    }
    const text = await readBody(req, options.bodyLimitBytes);
    if (text === ABORTED) {
      // The client went away (or Node cut it at HTTP_REQUEST_TIMEOUT_MS): nobody to answer, no
      // fault of ours. Once, low, without a stack: a client can cause it at will, key or not.
      options.logger.debug(
        { method, bytesDeclared: req.headers['content-length'] ?? null },
        'request body aborted by the client',
      );
      return;
    }
    if (text === null) {
      res.setHeader('connection', 'close'); // the rest of the body is not read
      return sendErrors(
        res,
        413,
        `The request body is larger than ${options.bodyLimitBytes} bytes.`,
        ErrorCode.BAD_USER_INPUT,
      );
    }
    if (!isJson(req.headers['content-type'])) {
      // Apollo would answer its CSRF paragraph; a first `curl -d` (form-encoded) needs the recipe.
      const sent = req.headers['content-type'] ? `content-type ${req.headers['content-type']}` : 'no content-type';
      return sendErrors(
        res,
        415,
        `The request body must be JSON, sent with content-type: application/json (this request had ${sent}). ${HOW_TO_CALL}`,
        ErrorCode.BAD_USER_INPUT,
      );
    }
    try {
      body = text.length === 0 ? undefined : JSON.parse(text);
    } catch {
      return sendErrors(res, 400, `The request body is not valid JSON. ${HOW_TO_CALL}`, ErrorCode.BAD_USER_INPUT);
    }
  }
  const payload = method === 'GET' ? Object.fromEntries(new URLSearchParams(search)) : body;
  if (method === 'GET' && !acceptsHtml(req.headers.accept)) {
    // A browser gets Apollo's landing page (outside production); `curl localhost:4000/graphql` gets the recipe.
    if (!('query' in (payload as Record<string, string>)))
      return sendErrors(
        res,
        400,
        `GET /graphql runs nothing without a ?query= parameter. ${HOW_TO_CALL}`,
        ErrorCode.BAD_USER_INPUT,
      );
    if (!preflighted(req)) {
      return sendErrors(
        res,
        400,
        `A GET /graphql needs the header apollo-require-preflight: true (a cross-site browser request cannot send it: CSRF prevention). ${HOW_TO_CALL}`,
        ErrorCode.BAD_USER_INPUT,
      );
    }
  }
  const auth = options.authenticate(req.headers.authorization);
  const refusal = options.screen({ method, payload, authorization: req.headers.authorization }, auth);
  if (refusal) return sendErrors(res, 400, refusal.message, refusal.code);

  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  const answer = await options.apollo.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method, headers, search, body },
    context: contextOf(options, req, auth),
  });
  for (const [key, value] of answer.headers) res.setHeader(key, value);
  res.statusCode = answer.status ?? 200;
  if (answer.body.kind === 'complete') {
    res.setHeader('content-length', Buffer.byteLength(answer.body.string));
    res.end(answer.body.string);
    return;
  }
  for await (const chunk of answer.body.asyncIterator) res.write(chunk);
  res.end();
}

// The per-request callbacks below are written inline, unnamed: tsx (esbuild's keepNames) wraps
// every named function expression in a `__name` call that redefines its `name`, which cost a
// `{ __typename }` ≈ 30 µs of CPU per request (docs/benchmarks.md, round 4).

/** Apollo's context thunk for this request. */
function contextOf<TContext extends BaseContext, TAuth>(
  options: GraphqlHttpOptions<TContext, TAuth>,
  req: IncomingMessage,
  auth: TAuth,
): () => Promise<TContext> {
  return () => options.context(req, auth);
}

/** What readBody answers when the request ended before its body did. */
const ABORTED = Symbol('aborted');

/** The body as UTF-8 text, null as soon as it passes `limitBytes`, or ABORTED when the client went away first. */
function readBody(req: IncomingMessage, limitBytes: number): Promise<string | null | typeof ABORTED> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) {
    req.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > limitBytes) return; // over the limit: the rest flows by unread
      size += chunk.length;
      if (size > limitBytes) {
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(size > limitBytes ? null : Buffer.concat(chunks, size).toString('utf8')));
    // An aborted request emits 'error' (ECONNRESET, "aborted") and then 'close'; whichever comes
    // first settles, once. Any other error is a fault and goes up.
    req.once('error', (error: NodeJS.ErrnoException) =>
      req.destroyed || error.code === 'ECONNRESET' ? resolve(ABORTED) : reject(error),
    );
    req.once('close', () => {
      if (!req.complete) resolve(ABORTED);
    });
  });
}

/** What a first caller needs, in every refusal of a request that is not a GraphQL call at all. */
export const HOW_TO_CALL =
  'Call the API with POST /graphql, the headers content-type: application/json and authorization: Bearer <key> (the key npm start printed), and a JSON body such as {"query":"{ health { engine version } }"}; in a browser, the ops console is at /console.';

function acceptsHtml(accept: string | undefined): boolean {
  return accept?.includes('text/html') === true;
}

/** Apollo's own CSRF rule for GET: a header a simple cross-site request cannot carry. */
function preflighted(req: IncomingMessage): boolean {
  if (req.headers['apollo-require-preflight'] !== undefined || req.headers['x-apollo-operation-name'] !== undefined)
    return true;
  const type = req.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
  return (
    type !== undefined &&
    type !== '' &&
    !['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'].includes(type)
  );
}

/** application/json, or any `+json` type, whatever its parameters (charset). */
function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

function sendErrors(res: ServerResponse, status: number, message: string, code: string): void {
  const text = JSON.stringify({ errors: [{ message, extensions: { code } }] });
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}
