import type BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect, type Generated, type SqliteDatabase } from "kysely";
import type { ROLE_NAMES } from "~/lib/user-shape";
import { migrateToLatest, migrateUrl, openSqlite } from "../../migrations/migrator.js";
import type { AuthMethod } from "./auth-method.server";
import { getEnv } from "./env.server";
import { queryObserver } from "./metrics.server";
import { postgresDialect } from "./postgres.server";
import { statementObserver } from "./server-timing.server";

export type Role = (typeof ROLE_NAMES)[number];

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  full_name: string;
  /** The address lines joined by single spaces: the one string the API, the CSV and the audit rows carry. */
  address: string;
  /**
   * The same lines as given, joined by line feeds, for the pages that show them apart; null before
   * migration 019. Written with `address` (addressToStore), so the two never disagree.
   */
  address_lines: string | null;
  /** The name and e-mail address as the investor search compares them (migrations/search-text.js); written with them. */
  search_text: string;
  is_nda_sent: number;
  is_nda_signed: number;
  role: Role;
  email_verified_at: number | null;
  /** When the account last signed in (a session or API tokens issued); null before migration 011. */
  last_login_at: number | null;
  /** The administrator who invited the account (null for everyone else, or once that administrator is removed). */
  created_by: string | null;
  /** How the account became an administrator; null for an investor's sign-up (migration 013). */
  created_via: "invitation" | "create-admin" | null;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  auth_method: Generated<AuthMethod>;
  /** When the user last proved, in this session, the password and the second factor (if any): "sudo". */
  reauthenticated_at: number | null;
  /**
   * A random id the sessions page names the session by, never the hash of the cookie's secret (migration 015,
   * which gave every session one; the app always writes it).
   */
  public_id: string | null;
  /** The browser's User-Agent when the session was opened, cut short; null before migration 015. */
  user_agent: string | null;
  /** The client's address when the session was opened; null before migration 015. */
  ip: string | null;
}

export type { AuthMethod };

export interface TotpCredentialsTable {
  user_id: string;
  /** Encrypted under DATA_KEY (app/server/secret-box.server.ts). */
  secret: string | null;
  confirmed_at: number | null;
  last_step: number | null;
}

/** An authenticator app's set-up in progress: the secret shown to one session, until a code confirms it. */
export interface TotpEnrolmentsTable {
  session_id_hash: string;
  user_id: string;
  /** Encrypted under DATA_KEY, as a confirmed secret is. */
  secret: string;
  created_at: number;
}

export interface RecoveryCodesTable {
  code_hash: string;
  user_id: string;
  created_at: number;
  used_at: number | null;
}

export interface PasskeysTable {
  id: string;
  user_id: string;
  public_key: Uint8Array;
  counter: number;
  transports: string;
  created_at: number;
  last_used_at: number | null;
  /** The owner's name for it; null for a passkey made before migration 015. */
  name: string | null;
}

export interface LoginChallengesTable {
  id_hash: string;
  kind: "second_step" | "passkey_register" | "passkey_login" | "passkey_confirm";
  user_id: string | null;
  challenge: string | null;
  created_at: number;
  expires_at: number;
}

export interface ApiTokensTable {
  token_hash: string;
  kind: "access" | "refresh";
  user_id: string;
  family_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

/** One API sign-in: the family its rotating tokens share, and where it came from (migration 015). */
export interface ApiTokenFamiliesTable {
  id: string;
  user_id: string;
  /** The client's User-Agent at the sign-in, cut short; null for families from before migration 015. */
  user_agent: string | null;
  ip: string | null;
  created_at: number;
  /** Moved by a refresh, and by an access token's use at most once a minute. */
  last_used_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface OneTimeTokensTable {
  token_hash: string;
  user_id: string;
  purpose: "verify" | "reset";
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface AuditEventsTable {
  id: Generated<number>;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target_id: string | null;
  target_email: string | null;
  details: string | null;
  ip: string | null;
  at: number;
  /** The hash chain (migrations/audit-chain.js): the previous row's hash, and this row's. */
  prev_hash: string | null;
  hash: string | null;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  email: string;
  message: string;
  ip: string | null;
  created_at: number;
  mailed_at: number | null;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  reset_at: number;
}

/** Investors per NDA state, kept by triggers on users (migrations/003_investor_counts.js). */
export interface InvestorCountsTable {
  is_nda_sent: number;
  is_nda_signed: number;
  n: number;
}

/** Moves on every change to users that a search can see (migrations/004_users_version.js). */
export interface UsersVersionTable {
  only_row: number;
  n: number;
}

/** A pending invitation to become an administrator: only the e-mailed token's SHA-256 is kept. */
export interface AdminInvitationsTable {
  id: string;
  token_hash: string;
  /** Normalized, as users.email; one pending invitation per address. */
  email: string;
  invited_by: string;
  created_at: number;
  expires_at: number;
}

/** A stored file, in 1 MiB rows of blob_chunks (migrations/016_materials_library.js). */
export interface BlobsTable {
  id: string;
  size: number;
  /** Hex SHA-256 of the whole file; null while its upload is under way. */
  sha256: string | null;
  chunk_count: number;
  /** 1 once the upload passed its checks and a version points at it; 0 for one under way or abandoned. */
  complete: number;
  created_at: number;
}

export interface BlobChunksTable {
  blob_id: string;
  chunk_index: number;
  data: Uint8Array;
}

export type DocumentKind = "pdf" | "video";
/** "signed": every investor whose NDA is signed; "chosen": the investors in document_audience. */
export type DocumentAudienceKind = "signed" | "chosen";

export interface DocumentsTable {
  id: string;
  title: string;
  description: string;
  kind: DocumentKind;
  position: number;
  audience: DocumentAudienceKind;
  published: number;
  /** 1: investors may download their stamped copy; 0: it is shown in the page's viewer only (migration 021). */
  downloadable: Generated<number>;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

export interface DocumentVersionsTable {
  id: string;
  document_id: string;
  number: number;
  /** The uploaded file's own name, as sent (shown to administrators only). */
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
  blob_id: string;
  /** A video's WebVTT captions, if the firm uploaded them with it. */
  captions_blob_id: string | null;
  uploaded_by: string | null;
  created_at: number;
  /** A PDF's pages, counted the first time its reading time is reported; null until then. */
  page_count: number | null;
}

export interface DocumentAudienceTable {
  document_id: string;
  user_id: string;
}

/** One opening of a document; its id is the download id stamped into a PDF copy. */
export interface DocumentOpensTable {
  id: string;
  document_id: string;
  version_id: string;
  user_id: string;
  opened_at: number;
}

export interface MaterialVisitsTable {
  user_id: string;
  visited_at: number;
}

/** Per document and person: their openings, first and last (kept by migration 017's triggers). */
export interface DocumentReadersTable {
  document_id: string;
  user_id: string;
  opens: number;
  first_opened_at: number;
  last_opened_at: number;
}

/** Per document: its readers and openings, first and last (kept by migration 017's triggers). */
export interface DocumentReadingTable {
  document_id: string;
  readers: number;
  opens: number;
  first_opened_at: number | null;
  last_opened_at: number | null;
}

/** The one stream of reading events a stamped copy (its download id) takes, and the time it reported. */
export interface ReadingStreamsTable {
  download_id: string;
  stream: string;
  total_ms: number;
  updated_at: number;
}

/** The batches a copy's stream has reported, each taken once. */
export interface ReadingBatchesTable {
  download_id: string;
  batch: number;
}

/** Per copy and page: the milliseconds it was on screen, the tab visible and the reader active. */
export interface PageTimesTable {
  download_id: string;
  page: number;
  document_id: string;
  user_id: string;
  ms: number;
  /** When the copy was delivered (its document_opens row's opened_at): the ranking's period reads it. */
  delivered_at: number;
  updated_at: number;
}

/** Per document and page: the time on it and the readers who reached it (migration 024's triggers keep it). */
export interface DocumentPageReadingTable {
  document_id: string;
  page: number;
  ms: number;
  readers: number;
}

/** Per document and reader: the time on its pages and the pages seen (kept by migration 024's triggers). */
export interface DocumentReaderReadingTable {
  document_id: string;
  user_id: string;
  ms: number;
  pages: number;
}

/** Per reader, day the copy was delivered (UTC day number) and document: the time (migration 024). */
export interface ReaderDayReadingTable {
  user_id: string;
  day: number;
  document_id: string;
  ms: number;
  entries: number;
}

/** Per viewer and video: the parts played (JSON [[from, to], ...] in ms), their length, and where they stopped. */
export interface VideoWatchesTable {
  user_id: string;
  document_id: string;
  duration_ms: number;
  ranges: string;
  watched_ms: number;
  stopped_at_ms: number;
  updated_at: number;
}

/** What an administrator chose to be told (migration 022): no row is "off". */
export type AlertMode = "openings" | "digest" | "off";

export interface AlertPreferencesTable {
  user_id: string;
  mode: AlertMode;
  /** The hour (UTC, 0-23) of the daily digest; kept when another mode is chosen, for when it comes back. */
  digest_hour: number;
  updated_at: number;
}

/** One alert e-mail, keyed by what it is about, so that it is made and sent once across instances. */
export interface AlertMailsTable {
  key: string;
  user_id: string;
  kind: "opening" | "digest";
  subject: string;
  body: string;
  created_at: number;
  /** When an instance took it to send: a lease, taken again by another once it has run out. */
  claimed_at: number | null;
  /** How many times an instance claimed it to send. */
  attempts: Generated<number>;
  sent_at: number | null;
}

/** Each upload of the firm's NDA (migration 020); the newest is offered. */
export interface NdaTemplatesTable {
  id: string;
  number: number;
  file_name: string;
  size: number;
  sha256: string;
  page_count: number;
  blob_id: string;
  uploaded_by: string | null;
  created_at: number;
}

/** An investor's consent to electronic records, as the disclosure read when given. */
export interface NdaConsentsTable {
  id: string;
  user_id: string;
  email: string;
  disclosure_version: string;
  disclosure_sha256: string;
  given_at: number;
  ip: string | null;
  user_agent: string | null;
  withdrawn_at: number | null;
}

/** The copy of the NDA rendered for one investor; superseded by a newer template or a corrected name. */
export interface NdaCopiesTable {
  id: string;
  user_id: string;
  template_id: string;
  email: string;
  full_name: string;
  address: string;
  sha256: string;
  blob_id: string;
  offered_at: number;
  superseded_at: number | null;
}

/** "portal": signed here, with its evidence; "outside": recorded by an administrator as signed elsewhere. */
export type NdaSignatureKind = "portal" | "outside";

export interface NdaSignaturesTable {
  id: string;
  user_id: string;
  email: string;
  kind: NdaSignatureKind;
  copy_id: string | null;
  consent_id: string | null;
  typed_name: string | null;
  signed_at: number;
  ip: string | null;
  user_agent: string | null;
  auth_method: string | null;
  signed_blob_id: string | null;
  signed_sha256: string | null;
  countersigned_by: string | null;
  countersigned_at: number | null;
  completed_blob_id: string | null;
  completed_sha256: string | null;
  completed_at: number | null;
  reason: string | null;
}

/** The firm's switches for what follows the materials (migration 023, docs/decisions/0037): one row. */
export interface PortalFeaturesTable {
  only_row: number;
  questions: number;
  qualification: number;
  interest: number;
  /** The firm's words beside an indication of interest: that it is not an offer or a commitment. */
  interest_notice: string;
  /** How many days a verification of an investor's qualification stands. */
  verification_days: number;
  updated_at: number;
}

export type QuestionStatus = "new" | "answered" | "closed";

/** An investor's question, with the private and the published answer (either, both or none). */
export interface QuestionsTable {
  id: string;
  user_id: string;
  document_id: string | null;
  page: number | null;
  body: string;
  status: QuestionStatus;
  private_answer: string | null;
  published_answer: string | null;
  answered_by: string | null;
  answered_at: number | null;
  published_at: number | null;
  created_at: number;
}

/** A published answer's earlier text, kept when an administrator edits it. */
export interface AnswerEditsTable {
  id: string;
  question_id: string;
  body: string;
  replaced_by: string | null;
  replaced_at: number;
}

/** An investor's statement of how they qualify; the latest stands. */
export interface QualificationStatementsTable {
  id: string;
  user_id: string;
  category: string;
  /** The date the investor gives, YYYY-MM-DD. */
  stated_on: string;
  created_at: number;
}

/** The firm's record of a verification of an investor's qualification; the latest stands until it expires. */
export interface VerificationsTable {
  id: string;
  user_id: string;
  method: string;
  verified_on: string;
  note: string;
  blob_id: string | null;
  file_name: string | null;
  recorded_by: string | null;
  expires_at: number;
  created_at: number;
}

/** A non-binding indication of interest, in whole U.S. dollars; the latest stands (a withdrawal too). */
export interface InterestIndicationsTable {
  id: string;
  user_id: string;
  amount: number | null;
  low: number | null;
  high: number | null;
  note: string;
  withdrawn: number;
  created_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  api_token_families: ApiTokenFamiliesTable;
  one_time_tokens: OneTimeTokensTable;
  audit_events: AuditEventsTable;
  contact_messages: ContactMessagesTable;
  rate_limits: RateLimitsTable;
  investor_counts: InvestorCountsTable;
  users_version: UsersVersionTable;
  totp_credentials: TotpCredentialsTable;
  totp_enrolments: TotpEnrolmentsTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  login_challenges: LoginChallengesTable;
  admin_invitations: AdminInvitationsTable;
  blobs: BlobsTable;
  blob_chunks: BlobChunksTable;
  documents: DocumentsTable;
  document_versions: DocumentVersionsTable;
  document_audience: DocumentAudienceTable;
  document_opens: DocumentOpensTable;
  material_visits: MaterialVisitsTable;
  document_readers: DocumentReadersTable;
  document_reading: DocumentReadingTable;
  reading_streams: ReadingStreamsTable;
  reading_batches: ReadingBatchesTable;
  page_times: PageTimesTable;
  document_page_reading: DocumentPageReadingTable;
  document_reader_reading: DocumentReaderReadingTable;
  reader_day_reading: ReaderDayReadingTable;
  video_watches: VideoWatchesTable;
  alert_preferences: AlertPreferencesTable;
  alert_mails: AlertMailsTable;
  nda_templates: NdaTemplatesTable;
  nda_consents: NdaConsentsTable;
  nda_copies: NdaCopiesTable;
  nda_signatures: NdaSignaturesTable;
  portal_features: PortalFeaturesTable;
  questions: QuestionsTable;
  answer_edits: AnswerEditsTable;
  qualification_statements: QualificationStatementsTable;
  verifications: VerificationsTable;
  interest_indications: InterestIndicationsTable;
}

let instance: Kysely<Database> | undefined;

export type DatabaseEngine = "sqlite" | "postgres";

/** PostgreSQL when DATABASE_URL is set; SQLite, in the file at DATABASE_PATH, otherwise. */
export function databaseEngine(): DatabaseEngine {
  return getEnv().databaseUrl ? "postgres" : "sqlite";
}

/** The one database handle of this process, opened on first use. */
export function getDb(): Kysely<Database> {
  if (!instance) {
    const env = getEnv();
    instance = new Kysely<Database>({
      dialect: env.databaseUrl
        ? postgresDialect(env)
        : new SqliteDialect({ database: withStatementCache(openSqlite(env.databasePath)) }),
      // Every statement's time and errors, for the metrics and Server-Timing; with both off Kysely has no hook.
      log: statementObserver(env.serverTiming, env.metrics.enabled ? queryObserver(databaseEngine()) : undefined),
    });
  }
  return instance;
}

const STATEMENTS_KEPT = 200;

/**
 * Kysely prepares every query it runs, and SQLite parses and plans it each time; the app runs
 * the same few dozen SQL texts over and over, so the prepared statements are kept (the least
 * recently used go first). SQLite re-plans a kept statement itself when the schema changes; one
 * still busy with a stream that was not read to its end is replaced rather than handed out again.
 */
function withStatementCache(sqlite: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText) {
      const kept = statements.get(sqlText);
      statements.delete(sqlText);
      const statement = kept && !kept.busy ? kept : sqlite.prepare(sqlText);
      statements.set(sqlText, statement);
      if (statements.size > STATEMENTS_KEPT) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}

/**
 * Brings the schema up to date. PostgreSQL's migrations run over a connection of their own, without the
 * app's statement timeout: a migration, or the wait for another instance's (kysely's advisory lock), may
 * rightly take longer than any request should.
 */
export async function migrateDatabase() {
  const { databaseUrl } = getEnv();
  return databaseUrl ? migrateUrl(databaseUrl, migrationKeys()) : migrateToLatest(getDb(), "sqlite", migrationKeys());
}

/** The keys of the settings that migrations need: AUDIT_KEY, and the DATA_KEY that encrypts. */
export function migrationKeys() {
  const { auditKey, dataKeys } = getEnv();
  return { auditKey, dataKey: dataKeys[0] };
}

export async function closeDatabase() {
  const db = instance;
  instance = undefined;
  await db?.destroy();
}
