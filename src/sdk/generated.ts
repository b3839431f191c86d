import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
};

export type Health = {
  __typename?: 'Health';
  /** uri, memory-server or emulator */
  engine: Scalars['String']['output'];
  /** Why this engine was chosen */
  engineReason: Scalars['String']['output'];
  /** Null when the server is not a replica set or hides its status */
  replicaSet: Maybe<ReplicaSetStatus>;
  /** The server version the database reports */
  version: Scalars['String']['output'];
};

export type Query = {
  __typename?: 'Query';
  /** The engine in use and the replica-set status */
  health: Health;
};

/** The replica set the API writes to, as the server reports it */
export type ReplicaSetStatus = {
  __typename?: 'ReplicaSetStatus';
  members: Scalars['Int']['output'];
  name: Scalars['String']['output'];
  /** host:port of the primary, if one is elected */
  primary: Maybe<Scalars['String']['output']>;
};

export type HealthQueryVariables = Exact<{ [key: string]: never; }>;


export type HealthQuery = { __typename?: 'Query', health: { __typename?: 'Health', engine: string, engineReason: string, version: string, replicaSet: { __typename?: 'ReplicaSetStatus', name: string, members: number, primary: string | null } | null } };


export const HealthDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"engine"}},{"kind":"Field","name":{"kind":"Name","value":"engineReason"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"replicaSet"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"members"}},{"kind":"Field","name":{"kind":"Name","value":"primary"}}]}}]}}]}}]} as unknown as DocumentNode<HealthQuery, HealthQueryVariables>;