// Query limits, from graphql-armor: how deep, how wide (aliases), how costly, how long (tokens)
// and how decorated (directives) one operation may be, and how many operations one batched HTTP
// request may carry. Depth, aliases, cost and directives are validation rules; tokens are counted
// with armor's lexer before the transport parses (armor's own Apollo plugin throws from a parsing
// hook, which Apollo answers as HTTP 500). Either way a refused operation never reaches a resolver.
// The admission screen (admission.ts) runs both, for HTTP and graphql-ws alike.
//
// Why these defaults (config.ts): the largest operation a client can legitimately send is one
// that selects every field of a result with every union member spelled out. For this schema the
// largest is `submitMoves` (test/server/queryLimits.test.ts builds one per root field): depth 8
// and cost 6,527 counted with fragments flattened (as these rules count: a union member's inline
// fragment is no level of its own; 4,368 before the hold successes joined DuplicateReplayed's
// union), about 850 tokens; before it, `transfer`: depth 7, cost 2,404, 657 tokens (the figures
// below were set for it); the SDK's documents are smaller. So depth 10 (docs/design.md's
// ceiling), cost 7,000 (the largest with room to spare, still under a dashboard's 24 deep account
// reads at about 7,300),
// 1,500 tokens (the largest, 1,188 since the hold successes joined DuplicateReplayed's union, ×1.25), 10 directives (no operation uses one; a few @include/@skip
// fit), 30 aliases (a dashboard fetching a page of accounts by id).
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { MaxTokensParserWLexer } from '@escape.tech/graphql-armor-max-tokens';
import { GraphQLError, type ValidationRule } from 'graphql';
import type { Config } from '../config.ts';
import type { GraphqlTelemetry } from './telemetry.ts';
import { ErrorCode } from '../graphql/errors.ts';

export type QueryLimits = Pick<
  Config['limits'],
  | 'graphqlDepthMax'
  | 'graphqlAliasesMax'
  | 'graphqlCostMax'
  | 'graphqlTokensMax'
  | 'graphqlDirectivesMax'
  | 'graphqlBatchMax'
>;

export interface QueryLimitProtection {
  /** Depth, aliases, cost and directives; for Apollo and for graphql-ws alike (through admission.ts). */
  validationRules: ValidationRule[];
  /** Tokens, checked before the transport parses: a refusal, or null. */
  checkTokens(query: string): GraphQLError | null;
}

type RefusalCounter = Pick<GraphqlTelemetry, 'queryLimitRefusalsTotal'>;

// The token count of a document is a function of its text, so a text that passed once passes
// again: the texts that passed are remembered and skip the lexer (a full lex of the document,
// ≈ 50 µs for a small one, on every request otherwise). Bounded in entries and in the length of a
// remembered text: the SDK ships a few dozen documents, the largest legitimate one (every field of
// `transfer`, 657 tokens) is 4,909 characters, so 1,000 texts of at most 16 KiB (16 MiB at the very
// worst) keep every real client's documents while a flood of distinct texts only evicts entries.
const TOKEN_CHECK_PASSED_ENTRIES_MAX = 1_000;
const TOKEN_CHECK_PASSED_TEXT_LENGTH_MAX = 16 * 1024;

const withoutSyntaxErrorPrefix = (message: string) => message.replace(/^Syntax Error: /, '');

export function queryLimitProtection(limits: QueryLimits, telemetry: RefusalCounter): QueryLimitProtection {
  // Armor prefixes every refusal with "Syntax Error: ", which misleads: the document parsed fine.
  // Reject handlers run before armor reports the error, so this one counts it and fixes the wording.
  const onRefusal =
    (limit: string) =>
    (_context: unknown, error: Error): void => {
      telemetry.queryLimitRefusalsTotal.inc({ limit });
      error.message = withoutSyntaxErrorPrefix(error.message);
    };
  // exposeLimits: the refusal says which limit and by how much, so a client can fix its operation.
  const armor = new ApolloArmor({
    // Fragments flattened: depth and cost count the fields a document nests, not how it spells them
    // (a union member in an inline fragment or a shared fragment is no deeper than written inline).
    maxDepth: {
      n: limits.graphqlDepthMax,
      exposeLimits: true,
      ignoreIntrospection: true,
      flattenFragments: true,
      onReject: [onRefusal('depth')],
    },
    maxAliases: { n: limits.graphqlAliasesMax, exposeLimits: true, onReject: [onRefusal('aliases')] },
    costLimit: {
      maxCost: limits.graphqlCostMax,
      exposeLimits: true,
      ignoreIntrospection: true,
      flattenFragments: true,
      onReject: [onRefusal('cost')],
    },
    maxTokens: { enabled: false }, // see checkTokens
    maxDirectives: { n: limits.graphqlDirectivesMax, exposeLimits: true, onReject: [onRefusal('directives')] },
    // Suggestions are masked by the admission screen (admission.ts), on both transports and for
    // every kind of suggestion (armor's plugin reaches HTTP only, and misses enum values).
    blockFieldSuggestion: { enabled: false },
  });
  const { validationRules } = armor.protect();
  const passed = new Set<string>(); // insertion order: the oldest is evicted first
  return {
    validationRules: validationRules as ValidationRule[],
    checkTokens(query) {
      if (passed.has(query)) return null;
      try {
        new MaxTokensParserWLexer(query, { n: limits.graphqlTokensMax, exposeLimits: true }).parseDocument();
        if (query.length <= TOKEN_CHECK_PASSED_TEXT_LENGTH_MAX) {
          if (passed.size >= TOKEN_CHECK_PASSED_ENTRIES_MAX) passed.delete(passed.values().next().value!);
          passed.add(query);
        }
        return null;
      } catch (error) {
        if (!(error instanceof Error) || !/Token limit/i.test(error.message)) return null; // a syntax error: the transport reports it
        telemetry.queryLimitRefusalsTotal.inc({ limit: 'tokens' });
        return new GraphQLError(withoutSyntaxErrorPrefix(error.message), {
          extensions: { code: ErrorCode.BAD_USER_INPUT },
        });
      }
    },
  };
}
