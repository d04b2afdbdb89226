-- prepare_order_files for paid orders alone, as supabase/schemas/16_orders.sql declares it (npm run db:diff).

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.prepare_order_files(order_id uuid)
 RETURNS uuid[]
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  asked uuid[] := '{}';
  wanted record;
begin
  perform private.require_marketplace_request();
  for wanted in
    select distinct t.id, t.file_url
    from public.orders o
    join public.order_lines l on l.order_id = o.id
    join public.purchases p on p.order_line_id = l.id
    join public.tracks t on t.id = p.track_id
    where o.id = prepare_order_files.order_id and o.state = 'paid' and nullif(t.file_url, '') is not null
  loop
    -- Asked by the marketplace, not the buyer: it counts toward no one's hourly bound of files to make.
    if private.request_made_file(wanted.id, 'mp3', wanted.file_url, null) then
      asked := asked || wanted.id;
    end if;
  end loop;
  return asked;
end
$function$
;
