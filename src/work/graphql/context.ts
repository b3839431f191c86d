// What the work items' resolvers read from the request context: the work service and its live
// feed. The app's context (src/app/requestContext.ts) is one.
import type { RequestContext } from '../../graphql/context.ts';
import type { WorkItemFeeds } from '../events.ts';
import type { WorkService } from '../service.ts';

export type WorkRequestContext = RequestContext<{ work: WorkService; liveFeeds: WorkItemFeeds }>;
