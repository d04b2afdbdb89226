-- Administration (08_administration.sql): news and the audit log, for a visitor, an artist, another
-- artist, a fan and an administrator. (What administrators do to users goes through the Edge
-- Functions: functions.test.sql.)
begin;
\ir helpers.sql

do $$
begin
  perform tests.remember('news', $q$
    insert into public.news_items (title, content) values ('Hello', 'World') returning id$q$);
  perform tests.remember('draft news', $q$
    insert into public.news_items (title, content, active) values ('Draft', 'Soon', false) returning id$q$);
  insert into public.audit_log (actor_id, action, summary) values (tests.id('admin'), 'news.add', 'Added Hello');
end
$$;

-- News: active items are public; administrators read, write and delete all.
select tests.each_actor('read active news', $$select 1 from public.news_items where id = tests.id('news')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read inactive news', $$select 1 from public.news_items where id = tests.id('draft news')$$, array['admin']);
select tests.each_actor('add news', $$insert into public.news_items (title, content, type) values ('Launch', 'We are live', 'announcement')$$,
  array['admin']);
select tests.each_actor('change news', $$update public.news_items set title = 'Changed' where id = tests.id('draft news')$$, array['admin']);
select tests.each_actor('delete news', $$delete from public.news_items where id = tests.id('news')$$, array['admin']);

-- The audit log: administrators read it; nobody writes, rewrites or deletes it through the API.
select tests.each_actor('read the audit log', $$select 1 from public.audit_log$$, array['admin']);
select tests.each_actor('write the audit log', $$insert into public.audit_log (actor_id, action, summary) values (tests.id('admin'), 'news.add', 'x')$$,
  array[]::text[]);
select tests.each_actor('change the audit log', $$update public.audit_log set summary = 'x'$$, array[]::text[]);
select tests.each_actor('delete the audit log', $$delete from public.audit_log$$, array[]::text[]);

select plan((select count(*)::integer from tests.cases));
select * from tests.proved_cases();
select * from finish();
rollback;
