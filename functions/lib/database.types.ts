// Generated from the local data plane by `npm run db:types` (supabase/local/database-types.ts).
// Do not edit: change a migration, then regenerate. A test fails while this file is stale.

export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];

export type Database = {
  // Lets supabase-js type the PostgREST features of the server version it talks to.
  __InternalSupabase: {
    PostgrestVersion: "12";
  };
  public: {
    Tables: {
      contacts: {
        Row: {
          created_at: string
          display_name: string
          email: string | null
          id: string
          linked_user_id: string | null
          notes: string | null
          owner_id: string
          phone: string | null
          updated_at: string
        }
        Insert: {
          created_at?: string
          display_name: string
          email?: string | null
          id?: string
          linked_user_id?: string | null
          notes?: string | null
          owner_id?: string
          phone?: string | null
          updated_at?: string
        }
        Update: {
          created_at?: string
          display_name?: string
          email?: string | null
          id?: string
          linked_user_id?: string | null
          notes?: string | null
          owner_id?: string
          phone?: string | null
          updated_at?: string
        }
        Relationships: []
      }
      messages: {
        Row: {
          content: string
          created_at: string
          id: string
          metadata: Json
          owner_id: string
          position: number
          role: string
          run_id: string | null
          thread_id: string
        }
        Insert: {
          content?: string
          created_at?: string
          id?: string
          metadata?: Json
          owner_id?: string
          position: number
          role: string
          run_id?: string | null
          thread_id: string
        }
        Update: {
          content?: string
          created_at?: string
          id?: string
          metadata?: Json
          owner_id?: string
          position?: number
          role?: string
          run_id?: string | null
          thread_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "messages_owner_id_run_id_fkey"
            columns: ["owner_id", "run_id"]
            isOneToOne: false
            referencedRelation: "runs"
            referencedColumns: ["owner_id", "id"]
          },
          {
            foreignKeyName: "messages_owner_id_thread_id_fkey"
            columns: ["owner_id", "thread_id"]
            isOneToOne: false
            referencedRelation: "threads"
            referencedColumns: ["owner_id", "id"]
          },
        ]
      }
      runs: {
        Row: {
          error_code: string | null
          finished_at: string | null
          id: string
          models: Json
          owner_id: string
          stage_timings: Json
          started_at: string
          status: string
          step_count: number
          thread_id: string
          usage: Json
        }
        Insert: {
          error_code?: string | null
          finished_at?: string | null
          id: string
          models?: Json
          owner_id?: string
          stage_timings?: Json
          started_at?: string
          status?: string
          step_count?: number
          thread_id: string
          usage?: Json
        }
        Update: {
          error_code?: string | null
          finished_at?: string | null
          id?: string
          models?: Json
          owner_id?: string
          stage_timings?: Json
          started_at?: string
          status?: string
          step_count?: number
          thread_id?: string
          usage?: Json
        }
        Relationships: [
          {
            foreignKeyName: "runs_owner_id_thread_id_fkey"
            columns: ["owner_id", "thread_id"]
            isOneToOne: false
            referencedRelation: "threads"
            referencedColumns: ["owner_id", "id"]
          },
        ]
      }
      schedule_items: {
        Row: {
          created_at: string
          description: string | null
          end_at: string | null
          id: string
          metadata: Json
          owner_id: string
          recurrence_exceptions: string[]
          recurrence_rule: string | null
          source_type: string
          start_at: string
          status: string
          timezone: string
          title: string
          updated_at: string
        }
        Insert: {
          created_at?: string
          description?: string | null
          end_at?: string | null
          id?: string
          metadata?: Json
          owner_id?: string
          recurrence_exceptions?: string[]
          recurrence_rule?: string | null
          source_type?: string
          start_at: string
          status?: string
          timezone?: string
          title: string
          updated_at?: string
        }
        Update: {
          created_at?: string
          description?: string | null
          end_at?: string | null
          id?: string
          metadata?: Json
          owner_id?: string
          recurrence_exceptions?: string[]
          recurrence_rule?: string | null
          source_type?: string
          start_at?: string
          status?: string
          timezone?: string
          title?: string
          updated_at?: string
        }
        Relationships: []
      }
      schedule_subscriptions: {
        Row: {
          created_at: string
          id: string
          invited_by: string
          item_id: string
          notify_level: string
          permission: string
          responded_at: string | null
          status: string
          subscriber_id: string
          updated_at: string
        }
        Insert: {
          created_at?: string
          id?: string
          invited_by?: string
          item_id: string
          notify_level?: string
          permission?: string
          responded_at?: string | null
          status?: string
          subscriber_id: string
          updated_at?: string
        }
        Update: {
          created_at?: string
          id?: string
          invited_by?: string
          item_id?: string
          notify_level?: string
          permission?: string
          responded_at?: string | null
          status?: string
          subscriber_id?: string
          updated_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "schedule_subscriptions_item_id_fkey"
            columns: ["item_id"]
            isOneToOne: false
            referencedRelation: "schedule_items"
            referencedColumns: ["id"]
          },
        ]
      }
      threads: {
        Row: {
          created_at: string
          id: string
          last_position: number
          metadata: Json
          owner_id: string
          title: string | null
          updated_at: string
        }
        Insert: {
          created_at?: string
          id: string
          last_position?: number
          metadata?: Json
          owner_id?: string
          title?: string | null
          updated_at?: string
        }
        Update: {
          created_at?: string
          id?: string
          last_position?: number
          metadata?: Json
          owner_id?: string
          title?: string | null
          updated_at?: string
        }
        Relationships: []
      }
      user_memory: {
        Row: {
          content: Json
          created_at: string
          kind: string
          owner_id: string
          updated_at: string
          version: number
        }
        Insert: {
          content?: Json
          created_at?: string
          kind: string
          owner_id?: string
          updated_at?: string
          version?: number
        }
        Update: {
          content?: Json
          created_at?: string
          kind?: string
          owner_id?: string
          updated_at?: string
          version?: number
        }
        Relationships: []
      }
    }
    Views: {
      agent_run_overview: {
        Row: {
          error_code: string | null
          execution_model: string | null
          execution_ms: number | null
          failed_tool_calls: number | null
          finished_at: string | null
          input_tokens: number | null
          intent_model: string | null
          intent_ms: number | null
          output_tokens: number | null
          owner_id: string | null
          report_ms: number | null
          run_id: string | null
          started_at: string | null
          status: string | null
          step_count: number | null
          thread_id: string | null
          thread_title: string | null
          tool_calls: number | null
          tool_error_codes: string[] | null
          total_ms: number | null
          total_tokens: number | null
        }
        Relationships: []
      }
      agent_thread_messages: {
        Row: {
          attachments: number | null
          created_at: string | null
          error_code: string | null
          method: string | null
          module: string | null
          owner_id: string | null
          position: number | null
          role: string | null
          run_id: string | null
          summary_version: number | null
          text_or_summary: string | null
          thread_id: string | null
          tool_name: string | null
          tool_status: string | null
        }
        Relationships: []
      }
    }
    Functions: {
      find_invitee: {
        Args: {
          p_phone?: string | null
          p_email?: string | null
        }
        Returns: string | null
      }
      health_check: {
        Args: Record<PropertyKey, never>
        Returns: boolean | null
      }
      my_pending_invitations: {
        Args: {
          p_limit?: number | null
        }
        Returns: {
          event_id: string | null
          title: string | null
          start_at: string | null
          end_at: string | null
          timezone: string | null
          event_status: string | null
          recurrence_rule: string | null
          permission: string | null
          invited_at: string | null
          inviter_id: string | null
          inviter_name: string | null
          inviter_email: string | null
          inviter_phone: string | null
        }[]
      }
      record_run_finish: {
        Args: {
          p_run_id: string | null
          p_status: string | null
          p_error_code: string | null
          p_step_count: number | null
          p_usage: Json | null
          p_stage_timings: Json | null
          p_messages: Json | null
        }
        Returns: undefined
      }
      record_run_start: {
        Args: {
          p_thread_id: string | null
          p_run_id: string | null
          p_title: string | null
          p_models: Json | null
          p_user_content: string | null
          p_user_metadata: Json | null
          p_earlier_limit?: number | null
        }
        Returns: {
          turn_role: string | null
          turn_content: string | null
        }[]
      }
      skip_schedule_occurrence: {
        Args: {
          p_id: string | null
          p_occurrence_start: string | null
        }
        Returns: Database["public"]["Tables"]["schedule_items"]["Row"][]
        SetofOptions: {
          from: "*"
          to: "schedule_items"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      update_schedule_item: {
        Args: {
          p_id: string | null
          p_patch: Json | null
        }
        Returns: Database["public"]["Tables"]["schedule_items"]["Row"][]
        SetofOptions: {
          from: "*"
          to: "schedule_items"
          isOneToOne: false
          isSetofReturn: true
        }
      }
    }
    Enums: {
      [_ in never]: never
    }
    CompositeTypes: {
      [_ in never]: never
    }
  }
  tool_agent: {
    Tables: {
      api_keys: {
        Row: {
          created_at: string
          key_hash: string
          key_id: string
          key_prefix: string
          last_used_at: string | null
          name: string
          revoked_at: string | null
          scopes: string[]
        }
        Insert: {
          created_at?: string
          key_hash: string
          key_id?: string
          key_prefix: string
          last_used_at?: string | null
          name: string
          revoked_at?: string | null
          scopes: string[]
        }
        Update: {
          created_at?: string
          key_hash?: string
          key_id?: string
          key_prefix?: string
          last_used_at?: string | null
          name?: string
          revoked_at?: string | null
          scopes?: string[]
        }
        Relationships: []
      }
      approvals: {
        Row: {
          approval_id: string
          caller: string
          cost_usd: number
          decided_at: string | null
          decided_by: string | null
          params: Json
          requested_at: string
          status: string
          tool_id: string
        }
        Insert: {
          approval_id?: string
          caller: string
          cost_usd: number
          decided_at?: string | null
          decided_by?: string | null
          params: Json
          requested_at?: string
          status?: string
          tool_id: string
        }
        Update: {
          approval_id?: string
          caller?: string
          cost_usd?: number
          decided_at?: string | null
          decided_by?: string | null
          params?: Json
          requested_at?: string
          status?: string
          tool_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "approvals_tool_id_fkey"
            columns: ["tool_id"]
            isOneToOne: false
            referencedRelation: "tools"
            referencedColumns: ["tool_id"]
          },
        ]
      }
      composites: {
        Row: {
          base_tools: string[]
          composite_id: string
          created_at: string
          description: string
          example: Json
          keywords: string[]
          name: string
          steps: Json
          updated_at: string
        }
        Insert: {
          base_tools: string[]
          composite_id: string
          created_at?: string
          description?: string
          example?: Json
          keywords: string[]
          name: string
          steps: Json
          updated_at?: string
        }
        Update: {
          base_tools?: string[]
          composite_id?: string
          created_at?: string
          description?: string
          example?: Json
          keywords?: string[]
          name?: string
          steps?: Json
          updated_at?: string
        }
        Relationships: []
      }
      containers: {
        Row: {
          container_id: string
          created_at: string
          destroyed_at: string | null
          gpu_count: number
          image: string
          last_accessed: string | null
          mem_limit: string
          nano_cpus: number
          port_mapping: Json
          status: string
          tool_id: string
          use_gpu: boolean
          volumes: Json
        }
        Insert: {
          container_id: string
          created_at?: string
          destroyed_at?: string | null
          gpu_count?: number
          image: string
          last_accessed?: string | null
          mem_limit?: string
          nano_cpus?: number
          port_mapping?: Json
          status?: string
          tool_id: string
          use_gpu?: boolean
          volumes?: Json
        }
        Update: {
          container_id?: string
          created_at?: string
          destroyed_at?: string | null
          gpu_count?: number
          image?: string
          last_accessed?: string | null
          mem_limit?: string
          nano_cpus?: number
          port_mapping?: Json
          status?: string
          tool_id?: string
          use_gpu?: boolean
          volumes?: Json
        }
        Relationships: []
      }
      cost_ledger: {
        Row: {
          approval_id: string | null
          caller: string
          cost_usd: number
          created_at: string
          entry_id: number
          tool_id: string
        }
        Insert: {
          approval_id?: string | null
          caller: string
          cost_usd: number
          created_at?: string
          entry_id?: number
          tool_id: string
        }
        Update: {
          approval_id?: string | null
          caller?: string
          cost_usd?: number
          created_at?: string
          entry_id?: number
          tool_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "cost_ledger_approval_id_fkey"
            columns: ["approval_id"]
            isOneToOne: false
            referencedRelation: "approvals"
            referencedColumns: ["approval_id"]
          },
        ]
      }
      task_log: {
        Row: {
          at: string
          detail: Json
          entry_id: number
          kind: string
          task_id: string
        }
        Insert: {
          at?: string
          detail?: Json
          entry_id?: number
          kind: string
          task_id: string
        }
        Update: {
          at?: string
          detail?: Json
          entry_id?: number
          kind?: string
          task_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "task_log_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["task_id"]
          },
        ]
      }
      tasks: {
        Row: {
          attempts: number
          cost_usd: number
          created_at: string
          description: string
          error: string | null
          finished_at: string | null
          kind: Database["tool_agent"]["Enums"]["task_kind"]
          model: string | null
          progress: string
          requested_by: string
          result: Json | null
          started_at: string | null
          status: Database["tool_agent"]["Enums"]["task_status"]
          steps: number
          task_id: string
          task_spec: Json
          tool_id: string | null
          updated_at: string
        }
        Insert: {
          attempts?: number
          cost_usd?: number
          created_at?: string
          description: string
          error?: string | null
          finished_at?: string | null
          kind: Database["tool_agent"]["Enums"]["task_kind"]
          model?: string | null
          progress?: string
          requested_by: string
          result?: Json | null
          started_at?: string | null
          status?: Database["tool_agent"]["Enums"]["task_status"]
          steps?: number
          task_id: string
          task_spec: Json
          tool_id?: string | null
          updated_at?: string
        }
        Update: {
          attempts?: number
          cost_usd?: number
          created_at?: string
          description?: string
          error?: string | null
          finished_at?: string | null
          kind?: Database["tool_agent"]["Enums"]["task_kind"]
          model?: string | null
          progress?: string
          requested_by?: string
          result?: Json | null
          started_at?: string | null
          status?: Database["tool_agent"]["Enums"]["task_status"]
          steps?: number
          task_id?: string
          task_spec?: Json
          tool_id?: string | null
          updated_at?: string
        }
        Relationships: []
      }
      tool_routes: {
        Row: {
          active_source: number
          consecutive_failures: number
          last_checked_at: string | null
          last_error: string | null
          last_healthy_at: string | null
          last_used_at: string | null
          started_at: string | null
          state: Database["tool_agent"]["Enums"]["process_state"]
          tool_id: string
          updated_at: string
        }
        Insert: {
          active_source?: number
          consecutive_failures?: number
          last_checked_at?: string | null
          last_error?: string | null
          last_healthy_at?: string | null
          last_used_at?: string | null
          started_at?: string | null
          state?: Database["tool_agent"]["Enums"]["process_state"]
          tool_id: string
          updated_at?: string
        }
        Update: {
          active_source?: number
          consecutive_failures?: number
          last_checked_at?: string | null
          last_error?: string | null
          last_healthy_at?: string | null
          last_used_at?: string | null
          started_at?: string | null
          state?: Database["tool_agent"]["Enums"]["process_state"]
          tool_id?: string
          updated_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "tool_routes_tool_id_fkey"
            columns: ["tool_id"]
            isOneToOne: true
            referencedRelation: "tools"
            referencedColumns: ["tool_id"]
          },
        ]
      }
      tool_sources: {
        Row: {
          allow_network: boolean
          container_id: string | null
          endpoint_path: string
          host_dir: string | null
          http_method: string
          image: string | null
          internal_port: number | null
          position: number
          remote_api_key_encrypted: string | null
          remote_api_key_masked: string | null
          remote_path: string | null
          remote_url: string | null
          timeout_ms: number | null
          tool_id: string
          type: Database["tool_agent"]["Enums"]["source_type"]
        }
        Insert: {
          allow_network?: boolean
          container_id?: string | null
          endpoint_path?: string
          host_dir?: string | null
          http_method?: string
          image?: string | null
          internal_port?: number | null
          position: number
          remote_api_key_encrypted?: string | null
          remote_api_key_masked?: string | null
          remote_path?: string | null
          remote_url?: string | null
          timeout_ms?: number | null
          tool_id: string
          type: Database["tool_agent"]["Enums"]["source_type"]
        }
        Update: {
          allow_network?: boolean
          container_id?: string | null
          endpoint_path?: string
          host_dir?: string | null
          http_method?: string
          image?: string | null
          internal_port?: number | null
          position?: number
          remote_api_key_encrypted?: string | null
          remote_api_key_masked?: string | null
          remote_path?: string | null
          remote_url?: string | null
          timeout_ms?: number | null
          tool_id?: string
          type?: Database["tool_agent"]["Enums"]["source_type"]
        }
        Relationships: [
          {
            foreignKeyName: "tool_sources_tool_id_fkey"
            columns: ["tool_id"]
            isOneToOne: false
            referencedRelation: "tools"
            referencedColumns: ["tool_id"]
          },
        ]
      }
      tools: {
        Row: {
          category: string
          cost_per_call_usd: number
          created_at: string
          description: string
          input_schema: Json
          name: string
          output_schema: Json
          search_names: string | null
          search_text: string | null
          search_vector: unknown | null
          status: Database["tool_agent"]["Enums"]["tool_status"]
          stream_support: boolean
          tool_id: string
          updated_at: string
          version: number
        }
        Insert: {
          category?: string
          cost_per_call_usd?: number
          created_at?: string
          description?: string
          input_schema?: Json
          name: string
          output_schema?: Json
          search_names?: string | null
          search_text?: string | null
          search_vector?: unknown | null
          status?: Database["tool_agent"]["Enums"]["tool_status"]
          stream_support?: boolean
          tool_id: string
          updated_at?: string
          version?: number
        }
        Update: {
          category?: string
          cost_per_call_usd?: number
          created_at?: string
          description?: string
          input_schema?: Json
          name?: string
          output_schema?: Json
          search_names?: string | null
          search_text?: string | null
          search_vector?: unknown | null
          status?: Database["tool_agent"]["Enums"]["tool_status"]
          stream_support?: boolean
          tool_id?: string
          updated_at?: string
          version?: number
        }
        Relationships: []
      }
    }
    Views: {
      [_ in never]: never
    }
    Functions: {
      any_word: {
        Args: {
          keyword: string | null
        }
        Returns: unknown | null
      }
      charge_call: {
        Args: {
          tool: string | null
          caller_id: string | null
          cost: number | null
          single_tx_limit: number | null
          monthly_limit: number | null
          approval?: string | null
        }
        Returns: Json | null
      }
      match_terms: {
        Args: {
          terms: string[] | null
          max_results?: number | null
        }
        Returns: {
          tool_id: string | null
          matched: string[] | null
        }[]
      }
      param_names: {
        Args: {
          input_schema: Json | null
        }
        Returns: string | null
      }
      register_tool: {
        Args: {
          tool: Json | null
          sources: Json | null
          expected_version: number | null
        }
        Returns: number | null
      }
      search_tools: {
        Args: {
          keyword?: string | null
          category_filter?: string | null
          include_inactive?: boolean | null
          max_results?: number | null
        }
        Returns: {
          tool_id: string | null
          match_score: number | null
        }[]
      }
    }
    Enums: {
      process_state: "stopped" | "starting" | "running" | "error"
      source_type: "local" | "docker" | "remote"
      task_kind: "build_tool" | "github_deploy" | "repair_tool"
      task_status: "pending" | "running" | "completed" | "failed"
      tool_status: "active" | "inactive" | "staging" | "building"
    }
    CompositeTypes: {
      [_ in never]: never
    }
  }
};
