-- Finding a tool. Ranking, best first:
--   1. an exact tool_id or name (case-insensitive) beats everything;
--   2. full-text rank over id and name (weight A), category and parameter names (B),
--      description (C), words as written and stemmed; a tool matching any of the keyword's
--      words is a candidate, and matching more of them ranks higher;
--   3. trigram word similarity to the id, name and parameter names, so a typo ("convertr")
--      still finds "converter";
--   4. a plain substring match anywhere, which is what finds a Chinese keyword: neither the
--      'simple' text-search parser nor trigrams split CJK text into words.
-- Candidates come from index scans (GIN on the vector, GIN trigram on all the text, and, when
-- those find too few, GIN trigram on the names) and only they are scored, so search stays fast
-- with many tools (npm run bench:tool-agent).

-- The keyword as a full-text query that matches any of its words, as written and stemmed. Built
-- from the keyword's lexemes, so search syntax in it ("quotes", -negation, operators) is only text.
create function tool_agent.any_word(keyword text) returns tsquery
language sql immutable
as $$
  select coalesce(string_agg(quote_nullable(lexeme), ' | ')::tsquery, ''::tsquery)
  from (
    select unnest(tsvector_to_array(to_tsvector('english'::regconfig, coalesce(keyword, ''))))
    union
    -- as written, except what English drops as a stop word ("a", "the"), which every
    -- description has
    select w from unnest(tsvector_to_array(to_tsvector('simple'::regconfig, coalesce(keyword, '')))) as w
    where to_tsvector('english'::regconfig, w) <> ''::tsvector
  ) as words(lexeme)
  where lexeme !~ '[''\\]'
$$;

-- plpgsql, so the keyword reaches each query as a value the planner sees.
create function tool_agent.search_tools(
  keyword text default '',
  category_filter text default null,
  include_inactive boolean default false,
  max_results integer default 20
)
returns table (tool_id text, match_score real)
language plpgsql stable
set search_path = extensions, pg_catalog
-- The planner prices a trigram check far below what it costs and would rather read every tool;
-- each candidate query here is meant to come from its index (GIN indexes answer by bitmap).
set enable_seqscan = off
set enable_indexscan = off
-- Typos of short words score about 0.5 ("wether" against "weather"); 0.6, the default, misses them.
set pg_trgm.word_similarity_threshold = 0.4
as $$
declare
  kw text := lower(btrim(coalesce(keyword, '')));
  -- any of the words, as written or stemmed ("a & b" becomes "a | b")
  words tsquery := tool_agent.any_word(keyword);
  -- the keyword as a LIKE pattern, its wildcards escaped
  pattern text := '%' || replace(replace(replace(lower(btrim(coalesce(keyword, ''))), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  wanted integer := least(greatest(coalesce(max_results, 20), 1), 100);
  found text[];
begin
  if kw = '' then
    return query
      select t.tool_id, 0::real
      from tool_agent.tools t
      where (include_inactive or t.status = 'active') and (category_filter is null or t.category = category_filter)
      order by 1
      limit wanted;
    return;
  end if;
  -- Exact candidates: words (full text) and substrings (any language).
  select coalesce(array_agg(h.tool_id), '{}') into found
  from (
    select c.tool_id from tool_agent.tools c where c.search_vector @@ words
    union
    select c.tool_id from tool_agent.tools c where c.search_text like pattern
  ) h
  join tool_agent.tools e on e.tool_id = h.tool_id
  where (include_inactive or e.status = 'active') and (category_filter is null or e.category = category_filter);
  -- Fuzzy candidates (a typo) only when the exact ones are too few: a short keyword can be
  -- similar to nearly every tool, and scoring all of them is what makes search slow.
  if cardinality(found) < wanted then
    select found || coalesce(array_agg(c.tool_id), '{}') into found
    from tool_agent.tools c
    where kw <% c.search_names and not (c.tool_id = any (found))
      and (include_inactive or c.status = 'active') and (category_filter is null or c.category = category_filter);
  end if;
  return query
    select
      t.tool_id,
      (
        case when lower(t.tool_id) = kw or lower(t.name) = kw then 100 else 0 end
        + ts_rank(t.search_vector, words) * 10
        + word_similarity(kw, t.search_names) * 5
        + case when t.search_text like pattern then 2 else 0 end
      )::real
    from tool_agent.tools t
    where t.tool_id = any (found)
      and (include_inactive or t.status = 'active')
      and (category_filter is null or t.category = category_filter)
    order by 2 desc, 1
    limit wanted;
end;
$$;

revoke all on function tool_agent.search_tools(text, text, boolean, integer) from public;
revoke all on function tool_agent.any_word(text) from public;
grant execute on function tool_agent.any_word(text) to tool_agent_service;
grant execute on function tool_agent.search_tools(text, text, boolean, integer) to tool_agent_service;
