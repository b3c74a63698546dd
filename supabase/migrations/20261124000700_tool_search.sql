-- Finding a tool (spec §2 `search`, §7 POST /search_tools). Ranking, best first:
--   1. an exact tool_id or name (case-insensitive) beats everything;
--   2. full-text rank over id and name (weight A), category and parameter names (B),
--      description (C);
--   3. trigram word similarity, so a typo ("convertr") still finds "converter";
--   4. a plain substring match, which is what finds a Chinese keyword: neither the 'simple'
--      text-search parser nor trigrams split CJK text into words.
-- Every branch of the filter can use an index (GIN on the vector, GIN trigram on the text),
-- so this stays fast with many tools (npm run bench:tool-search).
create function tool_agent.search_tools(
  keyword text default '',
  category_filter text default null,
  include_inactive boolean default false,
  max_results integer default 20
)
returns table (tool_id text, match_score real)
language sql stable
set search_path = extensions, pg_catalog
as $$
  with q as (
    select
      lower(btrim(coalesce(search_tools.keyword, ''))) as kw,
      websearch_to_tsquery('simple'::regconfig, coalesce(search_tools.keyword, '')) as ts
  ), pattern as (
    -- the keyword as a LIKE pattern, its wildcards escaped
    select '%' || replace(replace(replace(q.kw, '\', '\\'), '%', '\%'), '_', '\_') || '%' as p from q
  )
  select
    t.tool_id,
    (
      case when q.kw <> '' and (lower(t.tool_id) = q.kw or lower(t.name) = q.kw) then 100 else 0 end
      + ts_rank(t.search_vector, q.ts) * 10
      + case when q.kw <> '' then word_similarity(q.kw, t.search_text) * 5 else 0 end
      + case when q.kw <> '' and t.search_text like pattern.p then 2 else 0 end
    )::real as match_score
  from tool_agent.tools t, q, pattern
  where (search_tools.include_inactive or t.status = 'active')
    and (search_tools.category_filter is null or t.category = search_tools.category_filter)
    and (
      q.kw = ''
      or t.search_vector @@ q.ts
      or q.kw <% t.search_text
      or t.search_text like pattern.p
    )
  order by match_score desc, t.tool_id
  limit least(greatest(coalesce(search_tools.max_results, 20), 1), 100)
$$;

revoke all on function tool_agent.search_tools(text, text, boolean, integer) from public;
grant execute on function tool_agent.search_tools(text, text, boolean, integer) to tool_agent_service;
