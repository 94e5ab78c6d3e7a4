import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Seeded once: the vendors most gateways serve, with their built-in icon keys. Administrators edit or delete them. */
const SEED_VENDORS: { name: string; icon: string }[] = [
  { name: 'OpenAI', icon: 'openai' },
  { name: 'Anthropic', icon: 'anthropic' },
  { name: 'Google', icon: 'google' },
  { name: 'DeepSeek', icon: 'deepseek' },
  { name: 'Alibaba Qwen', icon: 'qwen' },
  { name: 'Zhipu', icon: 'zhipu' },
  { name: 'Moonshot', icon: 'moonshot' },
  { name: 'Meta', icon: 'meta' },
  { name: 'Mistral', icon: 'mistral' },
  { name: 'xAI', icon: 'xai' },
];

/** Seeded once: a few well-known models, with the limits their makers publish. */
const SEED_MODELS: { model_name: string; vendor: string; tags: string; context_length: number; max_output: number; input_modalities: string; output_modalities: string }[] = [
  { model_name: 'gpt-4o', vendor: 'OpenAI', tags: 'chat,vision,tools', context_length: 128000, max_output: 16384, input_modalities: 'text,image', output_modalities: 'text' },
  { model_name: 'gpt-4o-mini', vendor: 'OpenAI', tags: 'chat,vision,tools', context_length: 128000, max_output: 16384, input_modalities: 'text,image', output_modalities: 'text' },
  { model_name: 'text-embedding-3-small', vendor: 'OpenAI', tags: 'embedding', context_length: 8191, max_output: 0, input_modalities: 'text', output_modalities: 'embedding' },
  { model_name: 'dall-e-3', vendor: 'OpenAI', tags: 'image', context_length: 0, max_output: 0, input_modalities: 'text', output_modalities: 'image' },
  { model_name: 'whisper-1', vendor: 'OpenAI', tags: 'audio', context_length: 0, max_output: 0, input_modalities: 'audio', output_modalities: 'text' },
  { model_name: 'claude-sonnet-4-20250514', vendor: 'Anthropic', tags: 'chat,vision,tools,reasoning', context_length: 200000, max_output: 64000, input_modalities: 'text,image', output_modalities: 'text' },
  { model_name: 'gemini-2.5-pro', vendor: 'Google', tags: 'chat,vision,tools,reasoning', context_length: 1048576, max_output: 65536, input_modalities: 'text,image,audio,video', output_modalities: 'text' },
  { model_name: 'deepseek-chat', vendor: 'DeepSeek', tags: 'chat,tools', context_length: 0, max_output: 0, input_modalities: 'text', output_modalities: 'text' },
  { model_name: 'deepseek-reasoner', vendor: 'DeepSeek', tags: 'chat,reasoning', context_length: 0, max_output: 0, input_modalities: 'text', output_modalities: 'text' },
];

/** model_meta (what the pricing page tells about a model name) and vendors (who makes it). */
export class ModelMetadata1795740000000 implements MigrationInterface {
  name = 'ModelMetadata1795740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'vendors',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '64' },
          { name: 'icon', type: 'varchar', length: '255', default: "''" },
        ],
        indices: [{ name: 'idx_vendors_name', columnNames: ['name'], isUnique: true }],
      }),
      true,
    );
    await queryRunner.createTable(
      new Table({
        name: 'model_meta',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'model_name', type: 'varchar', length: '255' },
          { name: 'description', type: 'varchar', length: '1000', default: "''" },
          { name: 'vendor_id', type: 'integer', default: 0 },
          { name: 'tags', type: 'varchar', length: '255', default: "''" },
          { name: 'context_length', type: 'integer', default: 0 },
          { name: 'max_output', type: 'integer', default: 0 },
          { name: 'input_modalities', type: 'varchar', length: '128', default: "''" },
          { name: 'output_modalities', type: 'varchar', length: '128', default: "''" },
          { name: 'icon', type: 'varchar', length: '255', default: "''" },
          { name: 'created_time', type: 'bigint', default: 0 },
          { name: 'updated_time', type: 'bigint', default: 0 },
        ],
        indices: [
          { name: 'idx_model_meta_model_name', columnNames: ['model_name'], isUnique: true },
          { name: 'idx_model_meta_vendor_id', columnNames: ['vendor_id'] },
        ],
      }),
      true,
    );
    const manager = queryRunner.manager;
    await manager.createQueryBuilder().insert().into('vendors', ['name', 'icon']).values(SEED_VENDORS).execute();
    const vendors = await manager.createQueryBuilder().select(['id', 'name']).from('vendors', 'vendors').getRawMany<{ id: number | string; name: string }>();
    const vendorId = new Map(vendors.map((vendor) => [vendor.name, Number(vendor.id)]));
    const now = Math.floor(Date.now() / 1000);
    const models = SEED_MODELS.map(({ vendor, ...model }) => ({ ...model, vendor_id: vendorId.get(vendor) ?? 0, description: '', icon: '', created_time: now, updated_time: now }));
    await manager.createQueryBuilder().insert().into('model_meta', Object.keys(models[0])).values(models).execute();
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('model_meta', true);
    await queryRunner.dropTable('vendors', true);
  }
}
