import type { StackConfig } from './config.ts'
import type { Db } from './db.ts'
import { JwtError, verifyJwt } from './jwt.ts'

// What every service shares: the database, the configuration, and who the caller is.

export type Claims = {
  role: 'anon' | 'authenticated' | 'service_role'
  sub?: string
  email?: string
  app_metadata?: Record<string, unknown>
  user_metadata?: Record<string, unknown>
  session_id?: string
  exp?: number
  [k: string]: unknown
}

/** Auth emails (password reset and the like) land here instead of being sent, like Supabase's local mail catcher. */
export type Outbox = {
  messages: { to: string; subject: string; text: string; html: string; link?: string; at: string }[]
}

export type Stack = { db: Db; config: StackConfig; dataDir: string | null; outbox: Outbox }

export class HttpError extends Error {
  status: number
  body: unknown
  headers?: Record<string, string>
  constructor(status: number, body: unknown, headers?: Record<string, string>) {
    super(typeof body === 'object' && body && 'message' in body ? String(body.message) : `HTTP ${status}`)
    this.name = 'HttpError'
    this.status = status
    this.body = body
    this.headers = headers
  }
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })
}

const roles = new Set(['anon', 'authenticated', 'service_role'])

/**
 * The caller's claims, as PostgREST derives them: the Bearer token, else the `apikey` header (which is
 * itself a JWT: the anon or service-role key), else the anonymous role.
 */
export function claimsFromRequest(req: Request, config: StackConfig): Claims {
  const authorization = req.headers.get('authorization') ?? ''
  const bearer = /^bearer\s+(.+)$/i.exec(authorization)?.[1]?.trim()
  const token = bearer || req.headers.get('apikey')
  if (!token) return { role: 'anon' }
  let claims: Record<string, unknown>
  try {
    claims = verifyJwt<Record<string, unknown>>(token, config.jwtSecret)
  } catch (error) {
    const message = error instanceof JwtError ? error.message : 'JWT cannot be decoded'
    throw new HttpError(
      401,
      { code: 'PGRST301', details: null, hint: null, message },
      { 'www-authenticate': `Bearer error="invalid_token", error_description="${message}"` },
    )
  }
  const role = claims.role ?? 'anon'
  if (typeof role !== 'string' || !roles.has(role)) {
    throw new HttpError(401, {
      code: 'PGRST303',
      details: null,
      hint: null,
      message: `JWT role "${String(role)}" is not one of anon, authenticated, service_role`,
    })
  }
  return { ...claims, role } as Claims
}

/**
 * Runs fn in one transaction as the caller, exactly as PostgREST does: the role is switched and the
 * claims published for auth.uid()/auth.jwt() with transaction-local settings, so RLS decides what the
 * statements may see and change, and nothing leaks to the next request on the same connection.
 */
export async function asRole<T>(
  db: Db,
  claims: Claims,
  fn: (tx: Db) => Promise<T>,
  opts: { readOnly?: boolean; method?: string } = {},
): Promise<T> {
  return db.transaction(async (tx) => {
    if (opts.readOnly) await tx.exec('set transaction read only')
    await tx.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
              set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true),
              set_config('request.method', $4, true)`,
      [claims.role, JSON.stringify(claims), claims.sub ?? '', opts.method ?? (opts.readOnly ? 'GET' : 'POST')],
    )
    return fn(tx)
  })
}
