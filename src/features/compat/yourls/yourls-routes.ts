import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiErrorCode, Refusal, UnavailableError } from '../../../core/errors.ts';
import { API_STATUS } from '../../../http/api-statuses.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { rateHeaders } from '../../../http/rate-headers.ts';
import type { CompatDeps } from '../compat-deps.ts';
import { actionNamed, UNKNOWN_ACTION } from './yourls-actions.ts';
import { authenticate, logInMessage } from './yourls-auth.ts';
import { yourlsSchema } from './yourls-openapi.ts';
import { sendYourls, type YourlsAnswer } from './yourls-output.ts';
import { type YourlsParams, yourlsParams } from './yourls-params.ts';
import { callerFailure, isCallerRefusal, plainFailure, retryAfterOf } from './yourls-refusals.ts';

/**
 * The YOURLS API on Snip (docs/api.md §15, docs/migrating/yourls.md): yourls-api.php, GET or POST,
 * its parameters in the query, the form, or both. Every answer, refusals and faults included, is
 * in the format the request asked for, as YOURLS writes it.
 */

const PATH = '/yourls-api.php';
const UNREADABLE = 'The request could not be read.';

/** A refusal or an unavailable store as YOURLS's failure; undefined for a fault. */
function failureOf(error: unknown, params: YourlsParams): YourlsAnswer | undefined {
  if (isCallerRefusal(error)) return callerFailure(error, logInMessage(params));
  if (error instanceof Refusal) {
    const status = isApiErrorCode(error.code) ? API_STATUS[error.code] : 400;
    return plainFailure(error.message, status, error.code);
  }
  if (error instanceof UnavailableError) {
    return plainFailure('The service did not answer in time; try again shortly.', 503);
  }
  return undefined;
}

function sendFailure(reply: FastifyReply, params: YourlsParams, answer: YourlsAnswer, error: unknown) {
  if (error instanceof Refusal) reply.headers(rateHeaders(error.facts.rate));
  const retryAfter = retryAfterOf(error);
  if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
  return sendYourls(reply, params, answer);
}

/**
 * Whatever fastify or a hook refused before the handler ran (an unreadable body, a NUL), and faults.
 * The multipart parser throws plain errors for a broken form: before the handler, those are the
 * client's too.
 */
function answerErrors(app: FastifyInstance, handled: WeakSet<FastifyRequest>): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const params = yourlsParams(request.query, request.body);
    const failure = failureOf(error, params);
    if (failure) return sendFailure(reply, params, failure, error);
    const status = error.statusCode ?? 500;
    const unreadableForm = !handled.has(request) && request.isMultipart();
    if (error.validation || (status >= 400 && status < 500) || unreadableForm) {
      return sendYourls(reply, params, plainFailure(UNREADABLE, 400));
    }
    request.log.error({ err: error }, 'request failed');
    return sendYourls(reply, params, plainFailure('Something went wrong on our side; try again.', 500));
  });
}

export async function yourlsRoutes(app: FastifyInstance, deps: CompatDeps): Promise<void> {
  const handled = new WeakSet<FastifyRequest>();
  answerErrors(app, handled);

  async function handler(request: FastifyRequest, reply: FastifyReply) {
    handled.add(request);
    const params = yourlsParams(request.query, request.body);
    try {
      const action = actionNamed(params.get('action'));
      const { actor, rate } = await authenticate(deps, params, request.ip, action?.scope);
      reply.headers(rateHeaders(rate));
      const answer = action
        ? await action.run({ deps, params, actor, clientAddress: request.ip })
        : UNKNOWN_ACTION;
      return sendYourls(reply, params, answer);
    } catch (error) {
      const failure = failureOf(error, params);
      if (!failure) throw error;
      return sendFailure(reply, params, failure, error);
    }
  }

  app.get(PATH, { schema: yourlsSchema('get') }, handler);
  app.post(PATH, { schema: yourlsSchema('post') }, handler);
  refuseOtherMethods(app, PATH, ['GET', 'POST'], (reply) =>
    sendYourls(
      reply,
      yourlsParams(reply.request.query, undefined),
      plainFailure(`${PATH} answers GET and POST.`, 405),
    ),
  );
}
