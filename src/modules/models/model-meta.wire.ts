// The console type-checks against this file (web/tsconfig.json `@shared/*.wire`), so it may import only other *.wire.ts files.

/** What a model is good for; the pricing page filters by these. */
export type ModelTag = 'chat' | 'vision' | 'tools' | 'reasoning' | 'embedding' | 'image' | 'audio' | 'video';

/** What a model takes in or gives back. */
export type Modality = 'text' | 'image' | 'audio' | 'video' | 'file' | 'embedding';

/** The metadata of one model name, as administrators edit it. */
export interface ModelMetaView extends PublicModelMeta {
  id: number;
  model_name: string;
  created_time: number;
  updated_time: number;
}

/** A vendor (who makes models): a name and an icon (a built-in key or an https URL). */
export interface VendorView {
  id: number;
  name: string;
  icon: string;
  /** How many models name this vendor. */
  model_count: number;
}

/**
 * A model's metadata fields, which the public pricing answer adds to each row (empty values where none is set).
 * `icon`: empty (use the vendor's), one of the built-in icon keys, or an https URL the browser loads
 * (the server never fetches it).
 */
export interface PublicModelMeta {
  description: string;
  /** 0: no vendor. */
  vendor_id: number;
  tags: ModelTag[];
  /** Tokens; 0 when unknown. */
  context_length: number;
  /** Tokens; 0 when unknown. */
  max_output: number;
  input_modalities: Modality[];
  output_modalities: Modality[];
  icon: string;
}

/** A vendor as the public pricing answer lists it beside data. */
export interface PublicVendor {
  id: number;
  name: string;
  icon: string;
}
