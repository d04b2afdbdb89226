export type Json =
  | string
  | number
  | boolean
  | null
  | { [key: string]: Json | undefined }
  | Json[]

export type Database = {
  public: {
    Tables: {
      analytics: {
        Row: {
          artist_id: string
          created_at: string
          downloads: NonNullable<Json>
          geography: NonNullable<Json>
          revenue: NonNullable<Json>
          top_tracks: NonNullable<Json>
        }
        Insert: {
          artist_id: string
          created_at?: string
          downloads?: NonNullable<Json>
          geography?: NonNullable<Json>
          revenue?: NonNullable<Json>
          top_tracks?: NonNullable<Json>
        }
        Update: {
          artist_id?: string
          created_at?: string
          downloads?: NonNullable<Json>
          geography?: NonNullable<Json>
          revenue?: NonNullable<Json>
          top_tracks?: NonNullable<Json>
        }
        Relationships: [
          {
            foreignKeyName: "analytics_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      analytics_events: {
        Row: {
          artist_id: string
          country: string | null
          created_at: string
          embedded_on: string | null
          id: string
          track_id: string
          type: string
          user_id: string | null
        }
        Insert: {
          artist_id: string
          country?: string | null
          created_at?: string
          embedded_on?: string | null
          id?: string
          track_id: string
          type: string
          user_id?: string | null
        }
        Update: {
          artist_id?: string
          country?: string | null
          created_at?: string
          embedded_on?: string | null
          id?: string
          track_id?: string
          type?: string
          user_id?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "analytics_events_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "analytics_events_track_id_fkey"
            columns: ["track_id"]
            referencedRelation: "tracks"
            referencedColumns: ["id"]
          },
        ]
      }
      artist_payout_settings: {
        Row: {
          artist_id: string
          created_at: string
          payment_settings: NonNullable<Json>
          payout_method: string
          paypal_email: string
          stripe_account: string | null
          stripe_ready: boolean
        }
        Insert: {
          artist_id: string
          created_at?: string
          payment_settings?: NonNullable<Json>
          payout_method?: string
          paypal_email: string
          stripe_account?: string | null
          stripe_ready?: boolean
        }
        Update: {
          artist_id?: string
          created_at?: string
          payment_settings?: NonNullable<Json>
          payout_method?: string
          paypal_email?: string
          stripe_account?: string | null
          stripe_ready?: boolean
        }
        Relationships: [
          {
            foreignKeyName: "artist_payout_settings_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      artist_profiles: {
        Row: {
          artist_name: string
          bio: string | null
          created_at: string
          follower_count: number
          genres: string[]
          id: string
          profile_image_height: number | null
          profile_image_url: string | null
          profile_image_width: number | null
          short_description: string | null
          social_links: NonNullable<Json>
          tour_dates: NonNullable<Json>
          updated_at: string
          website: string | null
          currency: string | null
        }
        Insert: {
          artist_name: string
          bio?: string | null
          created_at?: string
          follower_count?: number
          genres?: string[]
          id: string
          profile_image_height?: number | null
          profile_image_url?: string | null
          profile_image_width?: number | null
          short_description?: string | null
          social_links?: NonNullable<Json>
          tour_dates?: NonNullable<Json>
          updated_at?: string
          website?: string | null
        }
        Update: {
          artist_name?: string
          bio?: string | null
          created_at?: string
          follower_count?: number
          genres?: string[]
          id?: string
          profile_image_height?: number | null
          profile_image_url?: string | null
          profile_image_width?: number | null
          short_description?: string | null
          social_links?: NonNullable<Json>
          tour_dates?: NonNullable<Json>
          updated_at?: string
          website?: string | null
        }
        Relationships: []
      }
      audit_log: {
        Row: {
          action: string
          actor_email: string | null
          actor_id: string | null
          created_at: string
          id: string
          reason: string | null
          summary: string
          target_id: string | null
        }
        Insert: {
          action: string
          actor_email?: string | null
          actor_id?: string | null
          created_at?: string
          id?: string
          reason?: string | null
          summary: string
          target_id?: string | null
        }
        Update: {
          action?: string
          actor_email?: string | null
          actor_id?: string | null
          created_at?: string
          id?: string
          reason?: string | null
          summary?: string
          target_id?: string | null
        }
        Relationships: []
      }
      cart_lines: {
        Row: {
          amount_cents: number | null
          created_at: string
          item_id: string
          kind: string
          quantity: number
          user_id: string
        }
        Insert: {
          amount_cents?: number | null
          created_at?: string
          item_id: string
          kind: string
          quantity?: number
          user_id?: string
        }
        Update: {
          amount_cents?: number | null
          created_at?: string
          item_id?: string
          kind?: string
          quantity?: number
          user_id?: string
        }
        Relationships: []
      }
      comments: {
        Row: {
          artist_id: string
          content: string
          created_at: string
          id: string
          reply_to: string | null
          track_id: string
          user_id: string
        }
        Insert: {
          artist_id: string
          content: string
          created_at?: string
          id?: string
          reply_to?: string | null
          track_id: string
          user_id?: string
        }
        Update: {
          artist_id?: string
          content?: string
          created_at?: string
          id?: string
          reply_to?: string | null
          track_id?: string
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "comments_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "comments_reply_to_fkey"
            columns: ["reply_to"]
            referencedRelation: "comments"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "comments_reply_to_fkey"
            columns: ["reply_to"]
            referencedRelation: "track_comments"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "comments_track_id_fkey"
            columns: ["track_id"]
            referencedRelation: "tracks"
            referencedColumns: ["id"]
          },
        ]
      }
      country_daily_stats: {
        Row: {
          artist_id: string
          country: string
          day: string
          downloads: number
          plays: number
        }
        Insert: {
          artist_id: string
          country: string
          day: string
          downloads?: number
          plays?: number
        }
        Update: {
          artist_id?: string
          country?: string
          day?: string
          downloads?: number
          plays?: number
        }
        Relationships: [
          {
            foreignKeyName: "country_daily_stats_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      download_codes: {
        Row: {
          artist_id: string
          code: string
          created_at: string
          disabled_at: string | null
          id: string
          redeemed_at: string | null
          redeemed_by: string | null
          release_id: string
        }
        Insert: {
          artist_id: string
          code: string
          created_at?: string
          disabled_at?: string | null
          id?: string
          redeemed_at?: string | null
          redeemed_by?: string | null
          release_id: string
        }
        Update: {
          artist_id?: string
          code?: string
          created_at?: string
          disabled_at?: string | null
          id?: string
          redeemed_at?: string | null
          redeemed_by?: string | null
          release_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "download_codes_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "download_codes_release_id_fkey"
            columns: ["release_id", "artist_id"]
            referencedRelation: "releases"
            referencedColumns: ["id", "artist_id"]
          },
        ]
      }
      email_settings: {
        Row: {
          release_digest: string
          release_emails: boolean
          sale_emails: boolean
          user_id: string
        }
        Insert: {
          release_digest?: string
          release_emails?: boolean
          sale_emails?: boolean
          user_id?: string
        }
        Update: {
          release_digest?: string
          release_emails?: boolean
          sale_emails?: boolean
          user_id?: string
        }
        Relationships: []
      }
      embed_daily_stats: {
        Row: {
          artist_id: string
          day: string
          origin: string
          plays: number
        }
        Insert: {
          artist_id: string
          day: string
          origin: string
          plays?: number
        }
        Update: {
          artist_id?: string
          day?: string
          origin?: string
          plays?: number
        }
        Relationships: [
          {
            foreignKeyName: "embed_daily_stats_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      fan_payout_settings: {
        Row: {
          created_at: string
          fan_id: string
          payment_settings: NonNullable<Json>
        }
        Insert: {
          created_at?: string
          fan_id: string
          payment_settings?: NonNullable<Json>
        }
        Update: {
          created_at?: string
          fan_id?: string
          payment_settings?: NonNullable<Json>
        }
        Relationships: [
          {
            foreignKeyName: "fan_payout_settings_fan_id_fkey"
            columns: ["fan_id"]
            referencedRelation: "fan_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      fan_profiles: {
        Row: {
          bio: string | null
          created_at: string
          favorite_genres: string[]
          id: string
          profile_image_height: number | null
          profile_image_url: string | null
          profile_image_width: number | null
          show_collection: boolean
          show_wishlist: boolean
          username: string
        }
        Insert: {
          bio?: string | null
          created_at?: string
          favorite_genres?: string[]
          id: string
          profile_image_height?: number | null
          profile_image_url?: string | null
          profile_image_width?: number | null
          show_collection?: boolean
          show_wishlist?: boolean
          username: string
        }
        Update: {
          bio?: string | null
          created_at?: string
          favorite_genres?: string[]
          id?: string
          profile_image_height?: number | null
          profile_image_url?: string | null
          profile_image_width?: number | null
          show_collection?: boolean
          show_wishlist?: boolean
          username?: string
        }
        Relationships: []
      }
      followers: {
        Row: {
          artist_id: string
          created_at: string
          fan_id: string
          id: string
        }
        Insert: {
          artist_id: string
          created_at?: string
          fan_id: string
          id?: string
        }
        Update: {
          artist_id?: string
          created_at?: string
          fan_id?: string
          id?: string
        }
        Relationships: [
          {
            foreignKeyName: "followers_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      gifts: {
        Row: {
          claimed_at: string | null
          claimed_by: string | null
          created_at: string
          giver_id: string
          id: string
          link_version: number
          mailed_at: string | null
          message: string | null
          order_line_id: string
          recipient_email: string
          refund_asked_at: string | null
          send_on: string
        }
        Insert: {
          claimed_at?: string | null
          claimed_by?: string | null
          created_at?: string
          giver_id: string
          id?: string
          link_version?: number
          mailed_at?: string | null
          message?: string | null
          order_line_id: string
          recipient_email: string
          refund_asked_at?: string | null
          send_on: string
        }
        Update: {
          claimed_at?: string | null
          claimed_by?: string | null
          created_at?: string
          giver_id?: string
          id?: string
          link_version?: number
          mailed_at?: string | null
          message?: string | null
          order_line_id?: string
          recipient_email?: string
          refund_asked_at?: string | null
          send_on?: string
        }
        Relationships: [
          {
            foreignKeyName: "gifts_order_line_id_fkey"
            columns: ["order_line_id"]
            referencedRelation: "order_lines"
            referencedColumns: ["id"]
          },
        ]
      }
      hidden_purchases: {
        Row: {
          created_at: string
          fan_id: string
          release_id: string
        }
        Insert: {
          created_at?: string
          fan_id?: string
          release_id: string
        }
        Update: {
          created_at?: string
          fan_id?: string
          release_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "hidden_purchases_release_id_fkey"
            columns: ["release_id"]
            referencedRelation: "releases"
            referencedColumns: ["id"]
          },
        ]
      }
      ledger_entries: {
        Row: {
          amount_cents: number
          artist_id: string
          available_at: string
          created_at: string
          currency: string
          dispute_id: string | null
          id: number
          item_id: string | null
          kind: string
          order_line_id: string | null
          payout_id: string | null
        }
        Insert: {
          amount_cents: number
          artist_id: string
          available_at?: string
          created_at?: string
          currency: string
          dispute_id?: string | null
          id?: never
          item_id?: string | null
          kind: string
          order_line_id?: string | null
          payout_id?: string | null
        }
        Update: {
          amount_cents?: number
          artist_id?: string
          available_at?: string
          created_at?: string
          currency?: string
          dispute_id?: string | null
          id?: never
          item_id?: string | null
          kind?: string
          order_line_id?: string | null
          payout_id?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "ledger_entries_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "ledger_entries_dispute_id_fkey"
            columns: ["dispute_id"]
            referencedRelation: "order_disputes"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "ledger_entries_item_id_fkey"
            columns: ["item_id"]
            referencedRelation: "sellables"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "ledger_entries_order_line_id_fkey"
            columns: ["order_line_id"]
            referencedRelation: "order_lines"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "ledger_entries_payout_id_fkey"
            columns: ["payout_id"]
            referencedRelation: "payouts"
            referencedColumns: ["id"]
          },
        ]
      }
      likes: {
        Row: {
          created_at: string
          track_id: string
          user_id: string
        }
        Insert: {
          created_at?: string
          track_id: string
          user_id?: string
        }
        Update: {
          created_at?: string
          track_id?: string
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "likes_track_id_fkey"
            columns: ["track_id"]
            referencedRelation: "tracks"
            referencedColumns: ["id"]
          },
        ]
      }
      membership_tiers: {
        Row: {
          allow_pay_more: boolean
          artist_id: string
          closed: boolean
          created_at: string
          currency: string
          description: string
          discount_percent: number
          grants_back_catalogue: boolean
          grants_new_releases: boolean
          id: string
          monthly_price_cents: number
          name: string
          yearly_price_cents: number | null
        }
        Insert: {
          allow_pay_more?: boolean
          artist_id: string
          closed?: boolean
          created_at?: string
          currency: string
          description?: string
          discount_percent?: number
          grants_back_catalogue?: boolean
          grants_new_releases?: boolean
          id?: string
          monthly_price_cents: number
          name: string
          yearly_price_cents?: number | null
        }
        Update: {
          allow_pay_more?: boolean
          artist_id?: string
          closed?: boolean
          created_at?: string
          currency?: string
          description?: string
          discount_percent?: number
          grants_back_catalogue?: boolean
          grants_new_releases?: boolean
          id?: string
          monthly_price_cents?: number
          name?: string
          yearly_price_cents?: number | null
        }
        Relationships: [
          {
            foreignKeyName: "membership_tiers_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      memberships: {
        Row: {
          amount_cents: number
          artist_id: string
          billing_interval: string
          currency: string
          current_period_end: string
          ended_at: string | null
          fan_id: string
          id: string
          joined_at: string
          state: string
          subscription_id: string
          tier_id: string
        }
        Insert: {
          amount_cents: number
          artist_id: string
          billing_interval: string
          currency: string
          current_period_end: string
          ended_at?: string | null
          fan_id: string
          id?: string
          joined_at?: string
          state?: string
          subscription_id: string
          tier_id: string
        }
        Update: {
          amount_cents?: number
          artist_id?: string
          billing_interval?: string
          currency?: string
          current_period_end?: string
          ended_at?: string | null
          fan_id?: string
          id?: string
          joined_at?: string
          state?: string
          subscription_id?: string
          tier_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "memberships_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "memberships_tier_id_fkey"
            columns: ["tier_id"]
            referencedRelation: "membership_tiers"
            referencedColumns: ["id"]
          },
        ]
      }
      merch: {
        Row: {
          allow_pay_more: boolean
          artist_id: string
          created_at: string
          description: string
          id: string
          image_small_url: string | null
          image_url: string | null
          price: number
          shipping_elsewhere: number
          shipping_home: number
          ships_from: string | null
          stock: number | null
          title: string
        }
        Insert: {
          allow_pay_more?: boolean
          artist_id: string
          created_at?: string
          description: string
          id?: string
          image_small_url?: string | null
          image_url?: string | null
          price: number
          shipping_elsewhere?: number
          shipping_home?: number
          ships_from?: string | null
          stock?: number | null
          title: string
        }
        Update: {
          allow_pay_more?: boolean
          artist_id?: string
          created_at?: string
          description?: string
          id?: string
          image_small_url?: string | null
          image_url?: string | null
          price?: number
          shipping_elsewhere?: number
          shipping_home?: number
          ships_from?: string | null
          stock?: number | null
          title?: string
        }
        Relationships: [
          {
            foreignKeyName: "merch_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      news_items: {
        Row: {
          active: boolean
          content: string
          created_at: string
          id: string
          title: string
          type: string
        }
        Insert: {
          active?: boolean
          content: string
          created_at?: string
          id?: string
          title: string
          type?: string
        }
        Update: {
          active?: boolean
          content?: string
          created_at?: string
          id?: string
          title?: string
          type?: string
        }
        Relationships: []
      }
      newsletter_signups: {
        Row: {
          artist_id: string
          confirmed_at: string | null
          created_at: string
          email: string
          id: string
        }
        Insert: {
          artist_id: string
          confirmed_at?: string | null
          created_at?: string
          email: string
          id?: string
        }
        Update: {
          artist_id?: string
          confirmed_at?: string | null
          created_at?: string
          email?: string
          id?: string
        }
        Relationships: [
          {
            foreignKeyName: "newsletter_signups_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      notifications: {
        Row: {
          actor_id: string | null
          comment_id: string | null
          created_at: string
          id: string
          kind: string
          order_id: string | null
          order_line_id: string | null
          read_at: string | null
          release_id: string | null
          user_id: string
        }
        Insert: {
          actor_id?: string | null
          comment_id?: string | null
          created_at?: string
          id?: string
          kind: string
          order_id?: string | null
          order_line_id?: string | null
          read_at?: string | null
          release_id?: string | null
          user_id: string
        }
        Update: {
          actor_id?: string | null
          comment_id?: string | null
          created_at?: string
          id?: string
          kind?: string
          order_id?: string | null
          order_line_id?: string | null
          read_at?: string | null
          release_id?: string | null
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "notifications_comment_id_fkey"
            columns: ["comment_id"]
            referencedRelation: "comments"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "notifications_comment_id_fkey"
            columns: ["comment_id"]
            referencedRelation: "track_comments"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "notifications_order_id_fkey"
            columns: ["order_id"]
            referencedRelation: "orders"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "notifications_order_line_id_fkey"
            columns: ["order_line_id"]
            referencedRelation: "order_lines"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "notifications_release_id_fkey"
            columns: ["release_id"]
            referencedRelation: "releases"
            referencedColumns: ["id"]
          },
        ]
      }
      order_disputes: {
        Row: {
          amount_cents: number
          closed_at: string | null
          currency: string
          id: string
          opened_at: string
          order_id: string
          reason: string
          status: string
        }
        Insert: {
          amount_cents: number
          closed_at?: string | null
          currency: string
          id: string
          opened_at?: string
          order_id: string
          reason: string
          status: string
        }
        Update: {
          amount_cents?: number
          closed_at?: string | null
          currency?: string
          id?: string
          opened_at?: string
          order_id?: string
          reason?: string
          status?: string
        }
        Relationships: [
          {
            foreignKeyName: "order_disputes_order_id_fkey"
            columns: ["order_id"]
            referencedRelation: "orders"
            referencedColumns: ["id"]
          },
        ]
      }
      order_lines: {
        Row: {
          amount_cents: number
          artist_id: string
          artist_share_cents: number
          bundle_discount_cents: number
          code_discount_cents: number
          crate_cents: number
          discount_code: string | null
          id: string
          item_id: string | null
          kind: string
          order_id: string
          position: number | null
          quantity: number
          refund_id: string | null
          refunded_at: string | null
          shipped_at: string | null
          shipping_cents: number
          tax_cents: number
          tax_country: string | null
          tax_name: string | null
          tax_rate: number | null
          title: string
          total_cents: number
          tracking: string | null
        }
        Insert: {
          amount_cents: number
          artist_id: string
          artist_share_cents: number
          bundle_discount_cents?: number
          code_discount_cents?: number
          crate_cents: number
          discount_code?: string | null
          id?: string
          item_id?: string | null
          kind: string
          order_id: string
          position?: number | null
          quantity?: number
          refund_id?: string | null
          refunded_at?: string | null
          shipped_at?: string | null
          shipping_cents?: number
          tax_cents?: number
          tax_country?: string | null
          tax_name?: string | null
          tax_rate?: number | null
          title: string
          total_cents: number
          tracking?: string | null
        }
        Update: {
          amount_cents?: number
          artist_id?: string
          artist_share_cents?: number
          bundle_discount_cents?: number
          code_discount_cents?: number
          crate_cents?: number
          discount_code?: string | null
          id?: string
          item_id?: string | null
          kind?: string
          order_id?: string
          position?: number | null
          quantity?: number
          refund_id?: string | null
          refunded_at?: string | null
          shipped_at?: string | null
          shipping_cents?: number
          tax_cents?: number
          tax_country?: string | null
          tax_name?: string | null
          tax_rate?: number | null
          title?: string
          total_cents?: number
          tracking?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "order_lines_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "order_lines_item_id_kind_fkey"
            columns: ["item_id", "kind"]
            referencedRelation: "sellables"
            referencedColumns: ["id", "kind"]
          },
          {
            foreignKeyName: "order_lines_order_id_fkey"
            columns: ["order_id"]
            referencedRelation: "orders"
            referencedColumns: ["id"]
          },
        ]
      }
      orders: {
        Row: {
          buyer_email: string
          buyer_id: string | null
          checkout_session: string | null
          country: string | null
          created_at: string
          currency: string
          follow_artists: boolean
          guest: boolean
          id: string
          paid_at: string | null
          payment_intent: string | null
          provider: string | null
          ship_to: string | null
          shipping_address: Json | null
          state: string
          tax_cents: number
          total_cents: number
          waived_withdrawal: boolean
        }
        Insert: {
          buyer_email: string
          buyer_id?: string | null
          checkout_session?: string | null
          country?: string | null
          created_at?: string
          currency: string
          follow_artists?: boolean
          guest?: boolean
          id?: string
          paid_at?: string | null
          payment_intent?: string | null
          provider?: string | null
          ship_to?: string | null
          shipping_address?: Json | null
          state?: string
          tax_cents?: number
          total_cents: number
          waived_withdrawal?: boolean
        }
        Update: {
          buyer_email?: string
          buyer_id?: string | null
          checkout_session?: string | null
          country?: string | null
          created_at?: string
          currency?: string
          follow_artists?: boolean
          guest?: boolean
          id?: string
          paid_at?: string | null
          payment_intent?: string | null
          provider?: string | null
          ship_to?: string | null
          shipping_address?: Json | null
          state?: string
          tax_cents?: number
          total_cents?: number
          waived_withdrawal?: boolean
        }
        Relationships: []
      }
      payouts: {
        Row: {
          amount_cents: number
          artist_id: string
          created_at: string
          currency: string
          description: string | null
          exchange_rate: number | null
          failure: string | null
          id: string
          method: string
          order_line_id: string | null
          payment_intent: string | null
          provider_id: string | null
          recipient: string
          requested_by: string
          reversal_id: string | null
          reversed_at: string | null
          sent_amount_cents: number | null
          sent_currency: string | null
          settled_at: string | null
          state: string
          unclaimed_at: string | null
        }
        Insert: {
          amount_cents: number
          artist_id: string
          created_at?: string
          currency: string
          description?: string | null
          exchange_rate?: number | null
          failure?: string | null
          id?: string
          method: string
          order_line_id?: string | null
          payment_intent?: string | null
          provider_id?: string | null
          recipient: string
          requested_by: string
          reversal_id?: string | null
          reversed_at?: string | null
          sent_amount_cents?: number | null
          sent_currency?: string | null
          settled_at?: string | null
          state?: string
          unclaimed_at?: string | null
        }
        Update: {
          amount_cents?: number
          artist_id?: string
          created_at?: string
          currency?: string
          description?: string | null
          exchange_rate?: number | null
          failure?: string | null
          id?: string
          method?: string
          order_line_id?: string | null
          payment_intent?: string | null
          provider_id?: string | null
          recipient?: string
          requested_by?: string
          reversal_id?: string | null
          reversed_at?: string | null
          sent_amount_cents?: number | null
          sent_currency?: string | null
          settled_at?: string | null
          state?: string
          unclaimed_at?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "payouts_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "payouts_order_line_id_fkey"
            columns: ["order_line_id"]
            referencedRelation: "order_lines"
            referencedColumns: ["id"]
          },
        ]
      }
      playlist_tracks: {
        Row: {
          added_at: string
          playlist_id: string
          position: number
          track_id: string
        }
        Insert: {
          added_at?: string
          playlist_id: string
          position?: number
          track_id: string
        }
        Update: {
          added_at?: string
          playlist_id?: string
          position?: number
          track_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "playlist_tracks_playlist_id_fkey"
            columns: ["playlist_id"]
            referencedRelation: "playlists"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "playlist_tracks_track_id_fkey"
            columns: ["track_id"]
            referencedRelation: "tracks"
            referencedColumns: ["id"]
          },
        ]
      }
      playlists: {
        Row: {
          created_at: string
          description: string | null
          id: string
          is_public: boolean
          name: string
          owner_id: string
          updated_at: string
        }
        Insert: {
          created_at?: string
          description?: string | null
          id?: string
          is_public?: boolean
          name: string
          owner_id?: string
          updated_at?: string
        }
        Update: {
          created_at?: string
          description?: string | null
          id?: string
          is_public?: boolean
          name?: string
          owner_id?: string
          updated_at?: string
        }
        Relationships: []
      }
      purchases: {
        Row: {
          amount: number
          artist_id: string
          country: string | null
          created_at: string
          download_code_id: string | null
          id: string
          order_line_id: string | null
          track_id: string
          user_id: string | null
        }
        Insert: {
          amount: number
          artist_id: string
          country?: string | null
          created_at?: string
          download_code_id?: string | null
          id?: string
          order_line_id?: string | null
          track_id: string
          user_id?: string | null
        }
        Update: {
          amount?: number
          artist_id?: string
          country?: string | null
          created_at?: string
          download_code_id?: string | null
          id?: string
          order_line_id?: string | null
          track_id?: string
          user_id?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "purchases_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "purchases_download_code_id_fkey"
            columns: ["download_code_id"]
            referencedRelation: "download_codes"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "purchases_order_line_id_fkey"
            columns: ["order_line_id"]
            referencedRelation: "order_lines"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "purchases_track_id_fkey"
            columns: ["track_id"]
            referencedRelation: "tracks"
            referencedColumns: ["id"]
          },
        ]
      }
      releases: {
        Row: {
          artist_id: string
          created_at: string
          id: string
          kind: string
          preorder: boolean
          price: number | null
          title: string
          updated_at: string
          release_price: number | null
          track_count: number | null
        }
        Insert: {
          artist_id: string
          created_at?: string
          id?: string
          kind: string
          preorder?: boolean
          price?: number | null
          title: string
          updated_at?: string
        }
        Update: {
          artist_id?: string
          created_at?: string
          id?: string
          kind?: string
          preorder?: boolean
          price?: number | null
          title?: string
          updated_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "releases_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      sellables: {
        Row: {
          artist_id: string
          id: string
          kind: string
          title: string
        }
        Insert: {
          artist_id: string
          id: string
          kind: string
          title: string
        }
        Update: {
          artist_id?: string
          id?: string
          kind?: string
          title?: string
        }
        Relationships: [
          {
            foreignKeyName: "sellables_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      store_settings: {
        Row: {
          artist_id: string
          bundling: NonNullable<Json>
          created_at: string
          discounts: NonNullable<Json>
          pricing_tiers: NonNullable<Json>
        }
        Insert: {
          artist_id: string
          bundling?: NonNullable<Json>
          created_at?: string
          discounts?: NonNullable<Json>
          pricing_tiers?: NonNullable<Json>
        }
        Update: {
          artist_id?: string
          bundling?: NonNullable<Json>
          created_at?: string
          discounts?: NonNullable<Json>
          pricing_tiers?: NonNullable<Json>
        }
        Relationships: [
          {
            foreignKeyName: "store_settings_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      track_daily_stats: {
        Row: {
          artist_id: string
          day: string
          downloads: number
          plays: number
          revenue: number
          sales: number
          track_id: string
        }
        Insert: {
          artist_id: string
          day: string
          downloads?: number
          plays?: number
          revenue?: number
          sales?: number
          track_id: string
        }
        Update: {
          artist_id?: string
          day?: string
          downloads?: number
          plays?: number
          revenue?: number
          sales?: number
          track_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "track_daily_stats_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "track_daily_stats_track_id_fkey"
            columns: ["track_id"]
            referencedRelation: "tracks"
            referencedColumns: ["id"]
          },
        ]
      }
      tracks: {
        Row: {
          allow_pay_more: boolean
          artist_id: string
          artwork_height: number | null
          artwork_small_url: string | null
          artwork_url: string | null
          artwork_width: number | null
          created_at: string
          description: string
          duration_seconds: number | null
          file_url: string | null
          genre: string
          id: string
          instant: boolean
          label: string | null
          master_format: string | null
          mp3_kbps: number | null
          peaks: Json | null
          price: number
          release_date: string
          release_id: string
          subgenre: string | null
          title: string
          track_number: number | null
          updated_at: string
        }
        Insert: {
          allow_pay_more?: boolean
          artist_id: string
          artwork_height?: number | null
          artwork_small_url?: string | null
          artwork_url?: string | null
          artwork_width?: number | null
          created_at?: string
          description: string
          duration_seconds?: number | null
          file_url?: string | null
          genre: string
          id?: string
          instant?: boolean
          label?: string | null
          master_format?: never
          mp3_kbps?: number | null
          peaks?: Json | null
          price: number
          release_date?: string
          release_id: string
          subgenre?: string | null
          title: string
          track_number?: number | null
          updated_at?: string
        }
        Update: {
          allow_pay_more?: boolean
          artist_id?: string
          artwork_height?: number | null
          artwork_small_url?: string | null
          artwork_url?: string | null
          artwork_width?: number | null
          created_at?: string
          description?: string
          duration_seconds?: number | null
          file_url?: string | null
          genre?: string
          id?: string
          instant?: boolean
          label?: string | null
          master_format?: never
          mp3_kbps?: number | null
          peaks?: Json | null
          price?: number
          release_date?: string
          release_id?: string
          subgenre?: string | null
          title?: string
          track_number?: number | null
          updated_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "tracks_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "tracks_release_id_fkey"
            columns: ["release_id", "artist_id"]
            referencedRelation: "releases"
            referencedColumns: ["id", "artist_id"]
          },
        ]
      }
      wishlist: {
        Row: {
          created_at: string
          fan_id: string
          release_id: string
        }
        Insert: {
          created_at?: string
          fan_id?: string
          release_id: string
        }
        Update: {
          created_at?: string
          fan_id?: string
          release_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "wishlist_release_id_fkey"
            columns: ["release_id"]
            referencedRelation: "releases"
            referencedColumns: ["id"]
          },
        ]
      }
    }
    Views: {
      artist_followers: {
        Row: {
          artist_id: string | null
          created_at: string | null
          display_name: string | null
          fan_id: string | null
          id: string | null
          is_fan: boolean | null
          profile_image_url: string | null
        }
        Relationships: [
          {
            foreignKeyName: "followers_artist_id_fkey"
            columns: ["artist_id"]
            referencedRelation: "artist_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      genre_counts: {
        Row: {
          artist_count: number | null
          genre: string | null
          total_count: number | null
          track_count: number | null
        }
        Relationships: []
      }
      track_comments: {
        Row: {
          author_image_url: string | null
          author_kind: string | null
          author_name: string | null
          content: string | null
          created_at: string | null
          id: string | null
          reply_to_kind: string | null
          reply_to_name: string | null
          reply_to_user_id: string | null
          track_id: string | null
          user_id: string | null
        }
        Relationships: [
          {
            foreignKeyName: "comments_track_id_fkey"
            columns: ["track_id"]
            referencedRelation: "tracks"
            referencedColumns: ["id"]
          },
        ]
      }
    }
    Functions: {
      account: { Args: Record<PropertyKey, never>; Returns: Json }
      add_to_cart: { Args: { lines: Json }; Returns: number }
      admin_money: { Args: { days?: number }; Returns: Json }
      album_page: { Args: { release_id: string }; Returns: Json }
      also_bought: {
        Args: { max_count?: number; release_id?: string; track_id?: string }
        Returns: Json
      }
      announce_releases: { Args: { max_releases?: number }; Returns: Json }
      apply_checkout: {
        Args: {
          checkout_session: string
          country?: string
          event_id?: string
          event_type?: string
          order_id?: string
          outcome: string
          payment_intent?: string
          shipping_address?: Json
          tax?: Json
        }
        Returns: Json
      }
      apply_payment_news: {
        Args: {
          dispute?: Json
          event_id: string
          event_type: string
          payment_intent: string
          refund_id?: string
          refunded?: number
        }
        Returns: string[]
      }
      artist_analytics: { Args: { days: number }; Returns: Json }
      artist_dashboard: { Args: Record<PropertyKey, never>; Returns: Json }
      artist_directory: {
        Args: {
          any_genres?: string[]
          include_genres?: boolean
          newest?: boolean
          page?: number
          page_size?: number
          search?: string
        }
        Returns: Json
      }
      artist_page: {
        Args: {
          artist_id: string
          release_page?: number
          release_page_size?: number
        }
        Returns: Json
      }
      artist_payouts: { Args: Record<PropertyKey, never>; Returns: Json }
      attach_checkout: {
        Args: { checkout_session: string; order_id: string; provider?: string }
        Returns: undefined
      }
      cancel_membership: { Args: { membership_id: string }; Returns: string }
      change_gift_recipient: {
        Args: { email: string; gift_id: string }
        Returns: string
      }
      change_paypal_email: {
        Args: { password: string; paypal_email: string }
        Returns: Json
      }
      checkout_order: { Args: { checkout_session: string }; Returns: Json }
      checkout_to_end: { Args: { order_id: string }; Returns: string }
      choose_payout_method: {
        Args: { password: string; payout_method: string }
        Returns: Json
      }
      claim_gift: {
        Args: { gift_id: string; link_version: number }
        Returns: string
      }
      connect_stripe: {
        Args: { account: string; password: string }
        Returns: Json
      }
      create_download_codes: {
        Args: { how_many: number; release_id: string }
        Returns: number
      }
      currency: {
        Args: { artist: Database["public"]["Tables"]["artist_profiles"]["Row"] }
        Returns: string
      }
      download_release: {
        Args: {
          country?: string
          format?: string
          release_id: string
          take?: boolean
        }
        Returns: {
          album_title: string
          artist_name: string
          crc32: number
          path: string
          requested: boolean
          size: number
          state: string
          title: string
          track: string
          track_number: number
        }[]
      }
      download_track: {
        Args: {
          country?: string
          format?: string
          take?: boolean
          track_id: string
        }
        Returns: {
          album_title: string
          artist_name: string
          crc32: number
          path: string
          requested: boolean
          size: number
          state: string
          title: string
          track: string
          track_number: number
        }[]
      }
      fail_made_file: {
        Args: {
          final?: boolean
          format: string
          master_path?: string
          reason?: string
          track_id: string
        }
        Returns: boolean
      }
      failed_payment_events: { Args: Record<PropertyKey, never>; Returns: Json }
      fan_dashboard: { Args: Record<PropertyKey, never>; Returns: Json }
      fan_page: {
        Args: {
          collection_page?: number
          fan_id: string
          wishlist_page?: number
        }
        Returns: Json
      }
      finish_made_file: {
        Args: {
          crc32: number
          format: string
          master_crc32: number
          master_path: string
          master_sample_rate: number
          master_size: number
          path: string
          seconds?: number
          size: number
          track_id: string
        }
        Returns: boolean
      }
      genre_page: {
        Args: { genre: string; max_artists?: number }
        Returns: Json
      }
      get_follower_count: { Args: { artist_id: string }; Returns: number }
      gift_to_claim: {
        Args: { gift_id: string; link_version: number }
        Returns: Json
      }
      given_gifts: { Args: Record<PropertyKey, never>; Returns: Json }
      guest_checkout_order: {
        Args: { checkout_session: string }
        Returns: Json
      }
      guest_receipt: { Args: Record<PropertyKey, never>; Returns: Json }
      home_page: { Args: Record<PropertyKey, never>; Returns: Json }
      is_admin: { Args: Record<PropertyKey, never>; Returns: boolean }
      join_guest_order: { Args: Record<PropertyKey, never>; Returns: boolean }
      line_to_refund: { Args: { line_id: string }; Returns: Json }
      made_file_job: {
        Args: { format: string; track_id: string }
        Returns: {
          album_title: string
          artist_id: string
          artist_name: string
          artwork_url: string
          genre: string
          kbps: number
          master_path: string
          measured: boolean
          path: string
          state: string
          title: string
          track_count: number
          track_number: number
          year: number
        }[]
      }
      mail_attempted: {
        Args: { failure?: string; mail_id: string; provider_id?: string }
        Returns: undefined
      }
      mail_given_up: { Args: { mail_id: string }; Returns: undefined }
      mail_to_send: { Args: { mail_id: string }; Returns: Json }
      mails_given_up: { Args: { how_many?: number }; Returns: Json }
      mark_shipped: {
        Args: { line_id: string; tracking?: string }
        Returns: string[]
      }
      membership_changed: {
        Args: { state: string; subscription_id: string }
        Returns: string
      }
      membership_paid: {
        Args: {
          amount_cents: number
          billing_interval: string
          country?: string
          currency: string
          fan_id: string
          invoice_id: string
          payment_intent?: string
          period_end: string
          subscription_id: string
          tax_cents: number
          tier_id: string
        }
        Returns: Json
      }
      merch_orders: {
        Args: Record<PropertyKey, never>
        Returns: {
          currency: string
          line_id: string
          order_reference: string
          paid_at: string
          quantity: number
          ship_to: string
          shipped_at: string
          shipping_address: Json
          title: string
          total: number
          tracking: string
        }[]
      }
      move_playlist_track: {
        Args: { playlist_id: string; to_position: number; track_id: string }
        Returns: undefined
      }
      my_playlists: { Args: Record<PropertyKey, never>; Returns: Json }
      newsletter_confirmation: {
        Args: { confirm?: boolean; mail_id: string }
        Returns: Json
      }
      newsletter_export: {
        Args: Record<PropertyKey, never>
        Returns: {
          confirmed: boolean
          email: string
          signed_up_at: string
          subscribed: boolean
        }[]
      }
      newsletter_signup: {
        Args: { artist_id: string; client?: string; email: string }
        Returns: string
      }
      open_order: {
        Args: {
          address?: string
          codes?: string[]
          currency?: string
          email?: string
          follow_artists?: boolean
          gift?: Json
          lines?: Json
          ship_to?: string
          waived_withdrawal?: boolean
        }
        Returns: Json
      }
      owned_releases: {
        Args: { page?: number; page_size?: number }
        Returns: Json
      }
      payment_event_outcome: {
        Args: {
          account?: string
          event_id: string
          event_type: string
          failure?: string
          provider: string
        }
        Returns: undefined
      }
      payment_event_to_apply: { Args: { event_id: string }; Returns: Json }
      payment_settled: {
        Args: {
          amount_cents: number
          currency: string
          exchange_rate?: number
          fee_cents: number
          payment_intent: string
        }
        Returns: undefined
      }
      payout_sent: {
        Args: {
          exchange_rate?: number
          payout_id: string
          provider_id: string
          sent_amount_cents?: number
          sent_currency?: string
        }
        Returns: undefined
      }
      payout_settled: {
        Args: { failure?: string; paid: boolean; payout_id: string }
        Returns: undefined
      }
      payout_unclaimed: {
        Args: { payout_id: string; since: string }
        Returns: undefined
      }
      payouts_to_send: {
        Args: Record<PropertyKey, never>
        Returns: {
          amount_cents: number
          artist_id: string
          created_at: string
          currency: string
          description: string | null
          exchange_rate: number | null
          failure: string | null
          id: string
          method: string
          order_line_id: string | null
          payment_intent: string | null
          provider_id: string | null
          recipient: string
          requested_by: string
          reversal_id: string | null
          reversed_at: string | null
          sent_amount_cents: number | null
          sent_currency: string | null
          settled_at: string | null
          state: string
          unclaimed_at: string | null
        }[]
        SetofOptions: {
          from: "*"
          to: "payouts"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      playlist_page: { Args: { playlist_id: string }; Returns: Json }
      prepare_order_files: { Args: { order_id: string }; Returns: string[] }
      price_cart: {
        Args: {
          address?: string
          codes?: string[]
          lines?: Json
          ship_to?: string
        }
        Returns: Json
      }
      publish_release: {
        Args: { kind: string; price?: number; title: string; tracks: Json }
        Returns: string[]
      }
      read_notifications: {
        Args: { before?: string; max_count?: number }
        Returns: Json
      }
      recent_uploads: {
        Args: { max_count?: number; within?: string }
        Returns: {
          bucket_id: string
          mimetype: string
          name: string
        }[]
      }
      record_play: {
        Args: {
          address?: string
          country?: string
          embedded_on?: string
          listener?: string
          track_id: string
        }
        Returns: boolean
      }
      record_refund: {
        Args: { line_id: string; refund_id?: string }
        Returns: string[]
      }
      record_user_administration: {
        Args: {
          action: string
          actor_email: string
          actor_id: string
          reason?: string
          user_email: string
          user_id: string
        }
        Returns: undefined
      }
      redeem_download_code: {
        Args: { address?: string; code: string }
        Returns: {
          kind: string
          outcome: string
          release_id: string
          title: string
        }[]
      }
      release_codes: {
        Args: { page?: number; page_size?: number; release_id: string }
        Returns: Json
      }
      release_feed: {
        Args: { artist_id?: string; max_count?: number }
        Returns: Json
      }
      release_mail_choice: {
        Args: { artist_id?: string; email: string }
        Returns: Json
      }
      release_price: {
        Args: { release: Database["public"]["Tables"]["releases"]["Row"] }
        Returns: number
      }
      replace_track_files: {
        Args: { artwork?: Json; audio?: Json; track_id: string }
        Returns: Json
      }
      retry_made_file: {
        Args: { format?: string; track_id: string }
        Returns: boolean
      }
      sales: {
        Args: { how_many?: number; item?: string; skip?: number }
        Returns: {
          amount: number
          artist_name: string
          artist_share: number
          buyer_email: string
          country: string
          currency: string
          discount: number
          gift: boolean
          item_id: string
          kind: string
          line_id: string
          order_reference: string
          paid_at: string
          quantity: number
          refunded_at: string
          shipping: number
          title: string
          total: number
        }[]
      }
      save_email_settings: {
        Args: {
          release_digest: string
          release_emails: boolean
          sale_emails: boolean
        }
        Returns: undefined
      }
      save_preorder: {
        Args: { instant?: string[]; release_date: string; release_id: string }
        Returns: Json
      }
      save_track: {
        Args: { album?: Json; details: Json; track_id: string }
        Returns: boolean
      }
      send_due_gifts: { Args: Record<PropertyKey, never>; Returns: string[] }
      send_gift_again: { Args: { gift_id: string }; Returns: string }
      send_mail_again: { Args: { mail_id: string }; Returns: string }
      send_receipt_again: { Args: { order_id: string }; Returns: string }
      set_release_mail: {
        Args: { artist_id?: string; email: string; subscribed: boolean }
        Returns: string
      }
      sold_items: {
        Args: Record<PropertyKey, never>
        Returns: {
          item_id: string
          kind: string
          title: string
        }[]
      }
      space_release_mails: {
        Args: { mails: string[]; per_second: number }
        Returns: {
          delay_seconds: number
          mail: string
        }[]
      }
      stream_backlog: {
        Args: { after_id?: string; ending: string; max_count?: number }
        Returns: string[]
      }
      stripe_account_updated: {
        Args: { account: string; ready: boolean }
        Returns: boolean
      }
      studio_catalog: {
        Args: { kind?: string; page?: number; page_size?: number }
        Returns: Json
      }
      studio_memberships: { Args: Record<PropertyKey, never>; Returns: Json }
      studio_releases: {
        Args: { page?: number; page_size?: number }
        Returns: Json
      }
      supported_by: {
        Args: { release_id?: string; track_id?: string }
        Returns: Json
      }
      suspended_until: {
        Args: { email: string; password: string }
        Returns: string
      }
      tax_collected: {
        Args: { days?: number }
        Returns: {
          country: string
          currency: string
          rate: number
          refunded_tax: number
          sales: number
          tax: number
          tax_name: string
        }[]
      }
      track_count: {
        Args: { release: Database["public"]["Tables"]["releases"]["Row"] }
        Returns: number
      }
      track_stream: {
        Args: { track_id: string }
        Returns: {
          artist_id: string
          failure: string
          has_audio: boolean
          path: string
          preparing: boolean
          state: string
        }[]
      }
      transfer_reversed: {
        Args: { payout_id: string; reversal_id: string }
        Returns: undefined
      }
      transfers_to_reverse: {
        Args: Record<PropertyKey, never>
        Returns: {
          amount_cents: number
          artist_id: string
          created_at: string
          currency: string
          description: string | null
          exchange_rate: number | null
          failure: string | null
          id: string
          method: string
          order_line_id: string | null
          payment_intent: string | null
          provider_id: string | null
          recipient: string
          requested_by: string
          reversal_id: string | null
          reversed_at: string | null
          sent_amount_cents: number | null
          sent_currency: string | null
          settled_at: string | null
          state: string
          unclaimed_at: string | null
        }[]
        SetofOptions: {
          from: "*"
          to: "payouts"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      unpublished_uploads: {
        Args: { max_count?: number; older_than?: string }
        Returns: {
          bucket_id: string
          name: string
        }[]
      }
      unsent_release_mails: {
        Args: Record<PropertyKey, never>
        Returns: string[]
      }
      withdraw_now: {
        Args: Record<PropertyKey, never>
        Returns: {
          amount_cents: number
          artist_id: string
          created_at: string
          currency: string
          description: string | null
          exchange_rate: number | null
          failure: string | null
          id: string
          method: string
          order_line_id: string | null
          payment_intent: string | null
          provider_id: string | null
          recipient: string
          requested_by: string
          reversal_id: string | null
          reversed_at: string | null
          sent_amount_cents: number | null
          sent_currency: string | null
          settled_at: string | null
          state: string
          unclaimed_at: string | null
        }[]
        SetofOptions: {
          from: "*"
          to: "payouts"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      withdraw_preorder: { Args: { release_id: string }; Returns: string[] }
    }
    Enums: {
      [_ in never]: never
    }
    CompositeTypes: {
      [_ in never]: never
    }
  }
}

type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] &
        DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] &
        DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R
      }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Insert: infer I
      }
      ? I
      : never
    : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Update: infer U
      }
      ? U
      : never
    : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends (DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never) = never,
> = DefaultSchemaEnumNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends (PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never) = never,
> = PublicCompositeTypeNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never

export const Constants = {
  public: {
    Enums: {},
  },
} as const

