-- Mail the queue gave up (17_mail.sql): marked given up through the marketplace alone (the consumer of the
-- mail queue's dead letters), never deleted; listed for administrators alone, who send it again (in the
-- audit log); a mail sent since is given up no more. Release mail spread over time through the marketplace alone
-- (19_announcements.sql, space_release_mails): each its turn after the last, and none queued again by the
-- hourly job before its turn.
begin;
\ir helpers.sql

do $$
begin
  perform tests.remember('given up', $q$insert into private.mails (kind, recipient, attempts, last_error, given_up_at)
    values ('paypal_changed', 'owner@tests.example', 9, 'the mail provider answered 500: An unexpected error occurred.',
      now() - interval '1 hour')
    returning id$q$);
  perform tests.remember('failing', $q$insert into private.mails (kind, recipient, attempts, last_error, detail)
    values ('payout_method_changed', 'other@tests.example', 9, 'the mail provider answered 500', 'paypal') returning id$q$);
  perform tests.remember('release 1', $q$insert into private.mails (kind, recipient) values ('releases', 'a@tests.example') returning id$q$);
  perform tests.remember('release 2', $q$insert into private.mails (kind, recipient) values ('releases', 'b@tests.example') returning id$q$);
  perform tests.remember('release 3', $q$insert into private.mails (kind, recipient) values ('releases', 'c@tests.example') returning id$q$);
end
$$;

select tests.each_actor('list the mail not sent', $$select 1 where public.mails_given_up(10) is not null$$, array['admin']);
select tests.each_actor('send a given-up mail again', format('select public.send_mail_again(%L)', tests.id('given up')), array['admin']);
select tests.each_actor('mark a mail given up without the marketplace', format('select public.mail_given_up(%L)', tests.id('failing')),
  array[]::text[]);
select tests.each_actor_through_marketplace('mark a mail given up', format('select public.mail_given_up(%L)', tests.id('failing')),
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('spread release mail without the marketplace',
  format('select * from public.space_release_mails(array[%L]::uuid[], 1)', tests.id('release 1')), array[]::text[]);

select plan((select count(*)::integer from tests.cases) + 10);

select * from tests.proved_cases();

-- The queue's dead letter marks a mail given up; administrators see it with its last error.
select tests.as_marketplace(format('select to_jsonb(public.mail_given_up(%L))', tests.id('failing')));
select is(
  (select jsonb_build_array(g -> 'count', (select jsonb_agg(jsonb_build_array(m ->> 'kind', m ->> 'recipient', m ->> 'last_error'))
     from jsonb_array_elements(g -> 'mails') m))
   from tests.through_marketplace('select public.mails_given_up(10)', 'admin') g),
  '[2, [["payout_method_changed", "other@tests.example", "the mail provider answered 500"],
        ["paypal_changed", "owner@tests.example", "the mail provider answered 500: An unexpected error occurred."]]]'::jsonb,
  'administrators see the mail the queue gave up, newest first, each with its last error');
select is((select count(*) from private.mails where id in (tests.id('given up'), tests.id('failing'))), 2::bigint,
  'and it is never deleted');

-- Send again: given up no more (the page queues it); twice is refused.
select is(tests.through_marketplace(format('select to_jsonb(public.send_mail_again(%L))', tests.id('given up')), 'admin') #>> '{}',
  tests.id('given up')::text, 'an administrator sends a given-up mail again');
select is((tests.through_marketplace('select public.mails_given_up(10)', 'admin') -> 'count')::integer, 1, 'and it leaves the list');
select is(
  (select jsonb_agg(jsonb_build_array(l.action, l.summary, l.actor_id = tests.id('admin'))) from public.audit_log l
   where l.target_id = tests.id('given up')),
  '[["mail.send_again", "paypal changed mail to owner@tests.example", true]]'::jsonb,
  'and the audit log says who sent what to whom again');
select is(tests.attempt('admin', format('select public.send_mail_again(%L)', tests.id('given up'))), 'refused:P0002',
  'a mail not given up is not sent again');

-- A mail sent meanwhile is given up no more.
select tests.as_marketplace(format('select to_jsonb(public.mail_attempted(%L, %L))', tests.id('failing'), 're_sent'));
select is((select given_up_at is null from private.mails where id = tests.id('failing')), true, 'a mail sent is given up no more');

-- Release mail spread at 1 a second: each its turn after the last, in the order made.
select is(
  (select jsonb_agg(s.delay_seconds order by s.delay_seconds)
   from jsonb_to_recordset(tests.as_marketplace(format(
     'select jsonb_agg(s) from public.space_release_mails(array[%L, %L]::uuid[], 1) s', tests.id('release 1'), tests.id('release 2'))))
     as s (mail uuid, delay_seconds integer)),
  '[0, 1]'::jsonb, 'release mail gets its turns a second apart');
select is(
  (tests.as_marketplace(format('select jsonb_agg(s.delay_seconds) from public.space_release_mails(array[%L]::uuid[], 1) s',
    tests.id('release 3')))),
  '[2]'::jsonb, 'and a later run''s mail goes after them');
-- Ten minutes on, none waiting for its turn is taken as never queued.
update private.mails set created_at = now() - interval '1 hour' where id in (tests.id('release 1'), tests.id('release 2'), tests.id('release 3'));
update private.mails set send_at = now() + interval '1 hour' where id = tests.id('release 3');
select is(
  tests.as_marketplace('select to_jsonb(public.unsent_release_mails())'),
  '[]'::jsonb, 'release mail waiting for its turn is not queued again');

select * from finish();
rollback;
