-- The SQL conventions (supabase/schemas/README.md, "Conventions") held for every function: each sets
-- `search_path = ''`; nothing the API serves (`public`) is security definer; and each public function is
-- either the documented wrapper (one line, `language sql`, `security invoker`, calling the security definer
-- function of its name and arguments in `private`) or says why not, in a comment that begins
-- "Runs as its caller: ".
begin;
\ir helpers.sql

select plan(3);

select is_empty(
  $$select n.nspname || '.' || p.oid::regprocedure::text
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname in ('public', 'private')
       and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
       and not coalesce('search_path=""' = any (p.proconfig), false)$$,
  'every function sets search_path to nothing, and names what it reads with its schema');

select is_empty(
  $$select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' and p.prosecdef$$,
  'no function the API serves is security definer');

select is_empty(
  $$select p.oid::regprocedure::text
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_language l on l.oid = p.prolang
     where n.nspname = 'public'
       and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
       and not (
         l.lanname = 'sql' and not p.prosecdef
         and regexp_replace(btrim(p.prosrc, e' \n\t'), '\s+', ' ', 'g') ~ ('^select (\* from )?private\.' || p.proname || '\([^;]*\)$')
         and exists (
           select 1 from pg_proc q join pg_namespace qn on qn.oid = q.pronamespace
            where qn.nspname = 'private' and q.proname = p.proname and q.proargtypes = p.proargtypes and q.prosecdef))
       and coalesce(obj_description(p.oid, 'pg_proc'), '') not like 'Runs as its caller: %'$$,
  'each public function is a wrapper over its private definer, or says why it runs as its caller');

select * from finish();
rollback;
