// The demo catalogue `npm run dev` loads into an empty local database: a category tree, brands,
// vendors and ~40 products with variants. Everything is deterministic (fixed timestamps, ids derived
// from them and a stable key), so the generated SQL is the same on every machine and every run, and
// `INSERT OR IGNORE` makes it safe to replay. No outbox events are written for seed rows.
//
// `node scripts/seed-data.mjs` prints the SQL, e.g. to load it elsewhere:
//   node scripts/seed-data.mjs > /tmp/seed.sql && npx wrangler d1 execute DB --local --file /tmp/seed.sql

import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { fixedId } from './lib/ids.mjs';
import { insertStatements } from './lib/sql.mjs';

/** Seed rows are dated from here on (well before any real data), so new rows sort after them. */
export const SEED_EPOCH = Date.parse('2026-10-01T09:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * What a variant weighs (kg, the store's weightUnit), by the product's first category unless its
 * spec says (`weight`, or a tent's `weightKg`): so weight-based shipping bands apply to the demo.
 */
const WEIGHT_BY_CATEGORY = {
  't-shirts': 0.2,
  hoodies: 0.7,
  socks: 0.08,
  kitchen: 0.8,
  decor: 1.2,
  audio: 0.3,
  'chargers-cables': 0.15,
  camping: 1.5,
  'bags-backpacks': 0.9,
};

// ---------------------------------------------------------------------------------------------
// Categories: [slug, name, description, children]

const CATEGORY_TREE = [
  [
    'clothing',
    'Clothing',
    'Everyday wear for all seasons.',
    [
      ['t-shirts', 'T-shirts', 'Crew necks, V-necks and long sleeves.'],
      ['hoodies', 'Hoodies', 'Pullovers and zip-ups in fleece and heavyweight cotton.'],
      ['socks', 'Socks', null],
    ],
  ],
  [
    'home',
    'Home',
    'Things for the house.',
    [
      ['kitchen', 'Kitchen', 'Cookware, knives and coffee gear.'],
      ['decor', 'Decor', 'Lamps, throws and candles.'],
    ],
  ],
  [
    'electronics',
    'Electronics',
    null,
    [
      ['audio', 'Audio', 'Headphones, earbuds and speakers.'],
      ['chargers-cables', 'Chargers & Cables', 'Power for your devices.'],
    ],
  ],
  [
    'outdoors',
    'Outdoors',
    'Gear for trails and campsites.',
    [
      ['camping', 'Camping', null],
      ['bags-backpacks', 'Bags & Backpacks', 'Daypacks, dry bags and totes.'],
    ],
  ],
];

// [slug, name, description]
const BRANDS = [
  ['northwind-apparel', 'Northwind Apparel', 'Everyday basics in organic cotton.'],
  ['loom-thread', 'Loom & Thread', 'Heavyweight knitwear and fleece, made to last.'],
  ['copperpot', 'Copperpot', 'Cookware and kitchen tools for home cooks.'],
  ['aurora-audio', 'Aurora Audio', 'Headphones and speakers tuned for detail.'],
  ['voltline', 'Voltline', 'Chargers, cables and power banks.'],
  ['trailhead-gear', 'Trailhead Gear', "Outdoor gear that doesn't weigh you down."],
];

// [slug, name, email]
const VENDORS = [
  ['acme-outfitters', 'Acme Outfitters', 'sales@acme-outfitters.example.com'],
  ['bluebird-home-tech', 'Bluebird Home & Tech', 'partners@bluebird.example.com'],
];

// ---------------------------------------------------------------------------------------------
// Products. Prices are in cents. `options` is the variant matrix (one variant per combination, in
// order); without it the product is simple: one variant with no options, mirroring its SKU and price.
// `priceBy` overrides the variant price for an option value; `stock` overrides stock by variant name.

const S_XL = ['S', 'M', 'L', 'XL'];

const PRODUCTS = [
  // Clothing > T-shirts
  {
    name: 'Classic Crew Tee',
    sku: 'NW-TEE-CREW',
    brand: 'northwind-apparel',
    vendor: 'acme-outfitters',
    categories: ['t-shirts'],
    price: 2400,
    description: 'A midweight crew-neck tee in organic cotton with a regular fit.',
    attributes: { material: 'cotton', organic: true, weightGsm: 180, fit: 'regular' },
    options: { size: S_XL, color: ['White', 'Black', 'Navy'] },
    stock: { 'XL / Navy': 2, 'S / Black': 0 },
    lowStockThreshold: 5,
  },
  {
    name: 'V-Neck Tee',
    sku: 'NW-TEE-VNECK',
    brand: 'northwind-apparel',
    vendor: 'acme-outfitters',
    categories: ['t-shirts'],
    price: 2200,
    description: 'A lightweight V-neck in slub cotton.',
    attributes: { material: 'cotton', organic: true, weightGsm: 150, fit: 'slim' },
    options: { size: S_XL, color: ['Heather Grey', 'Olive'] },
    lowStockThreshold: 5,
  },
  {
    name: 'Long-Sleeve Waffle Tee',
    sku: 'NW-TEE-WAFFLE',
    brand: 'northwind-apparel',
    vendor: 'acme-outfitters',
    categories: ['t-shirts'],
    price: 3400,
    compareAtPrice: 4200,
    description: 'Waffle-knit long sleeve, warm enough for spring evenings.',
    attributes: { material: 'cotton', knit: 'waffle' },
    options: { size: S_XL, color: ['Oatmeal'] },
    stock: { 'M / Oatmeal': 3, 'L / Oatmeal': 1 },
    lowStockThreshold: 5,
  },
  {
    name: 'Mountain Sunrise Graphic Tee',
    sku: 'NW-TEE-SUNRISE',
    brand: 'northwind-apparel',
    vendor: 'acme-outfitters',
    categories: ['t-shirts'],
    price: 2800,
    description: 'Water-based print of a sunrise over the ridge line.',
    attributes: { material: 'cotton', print: 'water-based' },
    options: { size: S_XL, color: ['Sand'] },
  },
  {
    name: "Kids' Rainbow Tee",
    sku: 'NW-TEE-KIDS-RAINBOW',
    brand: 'northwind-apparel',
    vendor: 'acme-outfitters',
    categories: ['t-shirts'],
    price: 1600,
    status: 'draft',
    description: 'Coming next season: a rainbow tee for ages 4 to 10.',
    attributes: { material: 'cotton', ageRange: '4-10' },
    options: { size: ['4Y', '6Y', '8Y', '10Y'] },
  },
  {
    name: 'Garment-Dyed Pocket Tee',
    sku: 'LT-TEE-POCKET',
    brand: 'loom-thread',
    vendor: 'acme-outfitters',
    categories: ['t-shirts'],
    price: 2600,
    description: 'Boxy pocket tee, garment-dyed for a lived-in colour.',
    attributes: { material: 'cotton', weightGsm: 220, fit: 'boxy' },
    options: { size: S_XL, color: ['Rust', 'Forest'] },
  },

  // Clothing > Hoodies
  {
    name: 'Heavyweight Pullover Hoodie',
    sku: 'LT-HOOD-PULL',
    brand: 'loom-thread',
    vendor: 'acme-outfitters',
    categories: ['hoodies'],
    price: 6800,
    compareAtPrice: 8000,
    description: '450 gsm brushed-back fleece with a double-layer hood.',
    attributes: { material: 'cotton', weightGsm: 450, fit: 'relaxed' },
    options: { size: S_XL, color: ['Charcoal', 'Navy'] },
    stock: { 'L / Charcoal': 4 },
    lowStockThreshold: 5,
  },
  {
    name: 'Zip-Up Fleece Hoodie',
    sku: 'LT-HOOD-ZIP',
    brand: 'loom-thread',
    vendor: 'acme-outfitters',
    categories: ['hoodies'],
    price: 7400,
    description: 'Full-zip hoodie in recycled polyester fleece.',
    attributes: { material: 'recycled polyester', recycled: true },
    options: { size: S_XL, color: ['Black', 'Moss'] },
  },
  {
    name: 'Cropped Hoodie',
    sku: 'LT-HOOD-CROP',
    brand: 'loom-thread',
    vendor: 'acme-outfitters',
    categories: ['hoodies'],
    price: 5800,
    description: 'A cropped, boxy hoodie with raw hems.',
    attributes: { material: 'cotton', fit: 'cropped' },
    options: { size: ['XS', 'S', 'M', 'L'], color: ['Lilac'] },
  },
  {
    name: 'Vintage Wash Hoodie',
    sku: 'LT-HOOD-VINTAGE',
    brand: 'loom-thread',
    vendor: 'acme-outfitters',
    categories: ['hoodies'],
    price: 6200,
    status: 'archived',
    description: 'Discontinued: replaced by the Heavyweight Pullover Hoodie.',
    attributes: { material: 'cotton', discontinued: true },
    options: { size: S_XL, color: ['Faded Black'] },
    stock: { 'S / Faded Black': 0, 'M / Faded Black': 0, 'L / Faded Black': 0, 'XL / Faded Black': 0 },
  },

  // Clothing > Socks
  {
    name: 'Merino Hiking Socks',
    sku: 'TH-SOCK-MERINO',
    brand: 'trailhead-gear',
    vendor: 'acme-outfitters',
    categories: ['socks', 'camping'],
    price: 1800,
    description: 'Cushioned merino socks for long days on the trail.',
    attributes: { material: 'merino wool', cushioning: 'medium' },
    options: { size: ['S', 'M', 'L'] },
    lowStockThreshold: 10,
  },
  {
    name: 'Everyday Crew Socks (3-Pack)',
    sku: 'NW-SOCK-CREW3',
    brand: 'northwind-apparel',
    vendor: 'acme-outfitters',
    categories: ['socks'],
    price: 1500,
    description: 'Three pairs of soft cotton crew socks.',
    attributes: { material: 'cotton', pairs: 3 },
    options: { color: ['White', 'Black', 'Mixed'] },
  },

  // Home > Kitchen
  {
    name: 'Copper Saucepan 2 L',
    sku: 'CP-SAUCE-2L',
    brand: 'copperpot',
    vendor: 'bluebird-home-tech',
    categories: ['kitchen'],
    price: 8900,
    compareAtPrice: 11000,
    description: 'Tin-lined copper saucepan with a cast brass handle.',
    attributes: { material: 'copper', capacityLitres: 2, inductionReady: false },
    simpleStock: 14,
  },
  {
    name: 'Cast Iron Skillet',
    sku: 'CP-SKILLET',
    brand: 'copperpot',
    vendor: 'bluebird-home-tech',
    categories: ['kitchen'],
    price: 3900,
    description: 'Pre-seasoned cast iron; goes from hob to oven.',
    attributes: { material: 'cast iron', inductionReady: true },
    options: { size: ['20 cm', '26 cm', '30 cm'] },
    priceBy: { size: { '26 cm': 4500, '30 cm': 5500 } },
  },
  {
    name: "Chef's Knife (20 cm)",
    sku: 'CP-KNIFE-CHEF20',
    brand: 'copperpot',
    vendor: 'bluebird-home-tech',
    categories: ['kitchen'],
    price: 7900,
    description: 'A 20 cm "gyuto"-style chef\'s knife in VG-10 steel.',
    attributes: { steel: 'VG-10', bladeLengthCm: 20, dishwasherSafe: false },
    simpleStock: 22,
  },
  {
    name: 'Pour-Over Coffee Set',
    sku: 'CP-COFFEE-POUR',
    brand: 'copperpot',
    vendor: 'bluebird-home-tech',
    categories: ['kitchen'],
    price: 4900,
    description: 'Dripper, glass carafe and 100 filters.',
    attributes: { material: 'borosilicate glass', cups: 4 },
    simpleStock: 3,
    lowStockThreshold: 5,
  },
  {
    name: 'Linen Tea Towels (Set of 3)',
    sku: 'CP-TOWEL-LINEN3',
    brand: 'copperpot',
    vendor: 'bluebird-home-tech',
    categories: ['kitchen'],
    price: 1900,
    description: 'Stonewashed linen, softer with every wash.',
    attributes: { material: 'linen', pieces: 3 },
    options: { color: ['Natural', 'Indigo', 'Terracotta'] },
  },
  {
    name: 'Insulated Travel Mug',
    sku: 'TH-MUG-TRAVEL',
    brand: 'trailhead-gear',
    vendor: 'bluebird-home-tech',
    categories: ['kitchen', 'camping'],
    price: 2900,
    description: 'Keeps coffee hot for 6 hours; leak-proof lid.',
    attributes: { capacityMl: 470, hotHours: 6, material: 'stainless steel' },
    options: { color: ['Black', 'Sage', 'Sand'] },
    stock: { Sage: 2 },
    lowStockThreshold: 5,
  },
  {
    name: 'Bamboo Cutting Board',
    sku: 'CP-BOARD-BAMBOO',
    brand: 'copperpot',
    vendor: 'bluebird-home-tech',
    categories: ['kitchen'],
    price: 3200,
    description: 'End-grain bamboo with a juice groove.',
    attributes: { material: 'bamboo' },
    options: { size: ['Medium', 'Large'] },
    priceBy: { size: { Large: 4200 } },
  },
  {
    name: 'Stoneware Mug Set',
    sku: 'CP-MUG-STONE4',
    brand: 'copperpot',
    vendor: 'bluebird-home-tech',
    categories: ['kitchen'],
    price: 3600,
    status: 'draft',
    description: 'Four hand-glazed stoneware mugs. Photos pending.',
    attributes: { material: 'stoneware', pieces: 4 },
    simpleStock: 0,
  },

  // Home > Decor
  {
    name: 'Ceramic Table Lamp',
    sku: 'BB-LAMP-CERAMIC',
    brand: null,
    vendor: 'bluebird-home-tech',
    categories: ['decor'],
    price: 12000,
    description: 'Hand-thrown ceramic base with a linen shade; E27 bulb.',
    attributes: { material: 'ceramic', bulb: 'E27', heightCm: 48 },
    options: { color: ['Cream', 'Slate'] },
  },
  {
    name: 'Wool Throw Blanket',
    sku: 'LT-THROW-WOOL',
    brand: 'loom-thread',
    vendor: 'bluebird-home-tech',
    categories: ['decor'],
    price: 9500,
    compareAtPrice: 12000,
    description: 'A 130 x 180 cm throw woven from lambswool.',
    attributes: { material: 'lambswool', widthCm: 130, lengthCm: 180 },
    options: { color: ['Mustard', 'Grey Check'] },
  },
  {
    name: 'Scented Soy Candle',
    sku: 'BB-CANDLE-SOY',
    brand: null,
    vendor: 'bluebird-home-tech',
    categories: ['decor'],
    price: 2400,
    description: 'Hand-poured soy wax, 45-hour burn time.',
    attributes: { wax: 'soy', burnHours: 45 },
    options: { scent: ['Cedar & Sage', 'Fig', 'Sea Salt'] },
    stock: { Fig: 1 },
    lowStockThreshold: 5,
  },

  // Electronics > Audio
  {
    name: 'Wireless Over-Ear Headphones',
    sku: 'AA-HP-OVEREAR',
    brand: 'aurora-audio',
    vendor: 'bluebird-home-tech',
    categories: ['audio'],
    price: 19900,
    compareAtPrice: 24900,
    description: 'Adaptive noise cancelling and 40 hours of battery.',
    attributes: { batteryHours: 40, bluetooth: '5.3', noiseCancelling: true },
    options: { color: ['Black', 'Silver'] },
    lowStockThreshold: 5,
  },
  {
    name: 'True Wireless Earbuds',
    sku: 'AA-EARBUDS-TW',
    brand: 'aurora-audio',
    vendor: 'bluebird-home-tech',
    categories: ['audio'],
    price: 12900,
    description: 'Sweat-resistant earbuds with a wireless charging case.',
    attributes: { batteryHours: 8, waterResistance: 'IPX4', noiseCancelling: true },
    options: { color: ['Black', 'White', 'Blue'] },
    stock: { Blue: 3 },
    lowStockThreshold: 5,
  },
  {
    name: 'Portable Bluetooth Speaker',
    sku: 'AA-SPK-PORTABLE',
    brand: 'aurora-audio',
    vendor: 'bluebird-home-tech',
    categories: ['audio', 'camping'],
    price: 7900,
    description: 'Rugged, waterproof and loud enough for the campsite.',
    attributes: { batteryHours: 16, waterResistance: 'IP67' },
    options: { color: ['Graphite', 'Coral', 'Teal'] },
  },
  {
    name: 'Studio Monitor Headphones',
    sku: 'AA-HP-STUDIO',
    brand: 'aurora-audio',
    vendor: 'bluebird-home-tech',
    categories: ['audio'],
    price: 14900,
    description: 'Closed-back, wired, flat response for mixing.',
    attributes: { impedanceOhm: 32, wired: true },
    simpleStock: 17,
  },
  {
    name: 'Bookshelf Speakers (Pair)',
    sku: 'AA-SPK-BOOKSHELF',
    brand: 'aurora-audio',
    vendor: 'bluebird-home-tech',
    categories: ['audio'],
    price: 24900,
    description: 'Powered bookshelf speakers with HDMI ARC and phono input.',
    attributes: { watts: 100, inputs: 'HDMI ARC, optical, phono, Bluetooth' },
    options: { finish: ['Walnut', 'Black'] },
    priceBy: { finish: { Walnut: 26900 } },
  },

  // Electronics > Chargers & Cables
  {
    name: '65 W USB-C GaN Charger',
    sku: 'VL-CHG-65W',
    brand: 'voltline',
    vendor: 'bluebird-home-tech',
    categories: ['chargers-cables'],
    price: 4900,
    description: 'Three ports, charges a laptop and a phone at once.',
    attributes: { watts: 65, ports: 3, gan: true },
    simpleStock: 42,
  },
  {
    name: 'Braided USB-C Cable',
    sku: 'VL-CABLE-USBC',
    brand: 'voltline',
    vendor: 'bluebird-home-tech',
    categories: ['chargers-cables'],
    price: 1400,
    description: 'USB-C to USB-C, 100 W, nylon braided.',
    attributes: { watts: 100, connector: 'USB-C' },
    options: { length: ['1 m', '2 m'] },
    priceBy: { length: { '2 m': 1800 } },
  },
  {
    name: 'Wireless Charging Pad',
    sku: 'VL-PAD-QI',
    brand: 'voltline',
    vendor: 'bluebird-home-tech',
    categories: ['chargers-cables'],
    price: 3500,
    compareAtPrice: 3900,
    description: '15 W Qi2 charging pad.',
    attributes: { watts: 15, standard: 'Qi2' },
    options: { color: ['Black', 'White'] },
  },
  {
    name: '20,000 mAh Power Bank',
    sku: 'VL-BANK-20K',
    brand: 'voltline',
    vendor: 'bluebird-home-tech',
    categories: ['chargers-cables', 'camping'],
    price: 5900,
    description: 'Charges a phone four times over. Back in stock soon.',
    attributes: { capacityMah: 20000, watts: 30 },
    simpleStock: 0,
    lowStockThreshold: 5,
  },

  // Outdoors > Camping
  {
    name: 'Two-Person Tent',
    sku: 'TH-TENT-2P',
    brand: 'trailhead-gear',
    vendor: 'acme-outfitters',
    categories: ['camping'],
    price: 24900,
    compareAtPrice: 29900,
    description: 'Freestanding three-season tent, 1.9 kg packed.',
    attributes: { persons: 2, seasons: 3, weightKg: 1.9 },
    options: { color: ['Olive', 'Orange'] },
    stock: { Orange: 2 },
    lowStockThreshold: 3,
  },
  {
    name: 'Down Sleeping Bag',
    sku: 'TH-BAG-DOWN',
    brand: 'trailhead-gear',
    vendor: 'acme-outfitters',
    categories: ['camping'],
    price: 18900,
    description: 'Responsibly sourced 650-fill down, comfort to -2 °C.',
    attributes: { fill: 'down', fillPower: 650, comfortC: -2 },
    options: { size: ['Regular', 'Long'] },
    priceBy: { size: { Long: 19900 } },
  },
  {
    name: 'Camping Headlamp',
    sku: 'TH-HEADLAMP',
    brand: 'trailhead-gear',
    vendor: 'acme-outfitters',
    categories: ['camping'],
    price: 2900,
    description: '400 lumens, red night mode, USB-C rechargeable.',
    attributes: { lumens: 400, rechargeable: true },
    simpleStock: 35,
  },

  // Outdoors > Bags & Backpacks
  {
    name: '28 L Daypack',
    sku: 'TH-PACK-28L',
    brand: 'trailhead-gear',
    vendor: 'acme-outfitters',
    categories: ['bags-backpacks'],
    price: 8900,
    description: 'Padded laptop sleeve, hip belt and rain cover.',
    attributes: { capacityLitres: 28, laptopSleeve: true },
    options: { color: ['Black', 'Navy', 'Rust'] },
    lowStockThreshold: 5,
  },
  {
    name: 'Roll-Top Dry Bag',
    sku: 'TH-DRYBAG',
    brand: 'trailhead-gear',
    vendor: 'acme-outfitters',
    categories: ['bags-backpacks', 'camping'],
    price: 3400,
    description: 'Welded seams, fully waterproof.',
    attributes: { waterproof: true },
    options: { size: ['10 L', '20 L'] },
    priceBy: { size: { '20 L': 4200 } },
  },
  {
    name: 'Canvas Tote Bag',
    sku: 'NW-TOTE-CANVAS',
    brand: 'northwind-apparel',
    vendor: 'acme-outfitters',
    categories: ['bags-backpacks'],
    price: 2200,
    description: 'Heavy cotton canvas with an inside pocket.',
    attributes: { material: 'cotton canvas', organic: true },
    simpleStock: 60,
  },
];

// ---------------------------------------------------------------------------------------------
// Builders

function slugify(text) {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A stable number in [0, n) from a string. */
function stableInt(text, n) {
  return createHash('sha256').update(text).digest().readUInt32BE(0) % n;
}

function skuCode(value) {
  return value.toUpperCase().replace(/[^A-Z0-9]+/g, '');
}

/** Every combination of the option values, in order (first option varies slowest). */
function combinations(options) {
  let combos = [{}];
  for (const [name, values] of Object.entries(options)) {
    combos = combos.flatMap((combo) => values.map((value) => ({ ...combo, [name]: value })));
  }
  return combos;
}

const iso = (ms) => new Date(ms).toISOString();

/** The seed's rows, table by table, keyed by column name. */
export function buildSeedData() {
  const categories = [];
  const categoryIds = new Map();
  let n = 0;
  CATEGORY_TREE.forEach(([slug, name, description, children], position) => {
    const ms = SEED_EPOCH + n++ * MINUTE;
    const id = fixedId('cat', ms, slug);
    categoryIds.set(slug, id);
    categories.push({ id, name, slug, description, parent_id: null, position, created_at: iso(ms), updated_at: iso(ms) });
    children.forEach(([childSlug, childName, childDescription], childPosition) => {
      const childMs = SEED_EPOCH + n++ * MINUTE;
      const childId = fixedId('cat', childMs, childSlug);
      categoryIds.set(childSlug, childId);
      categories.push({
        id: childId,
        name: childName,
        slug: childSlug,
        description: childDescription,
        parent_id: id,
        position: childPosition,
        created_at: iso(childMs),
        updated_at: iso(childMs),
      });
    });
  });

  const brandIds = new Map();
  const brands = BRANDS.map(([slug, name, description], i) => {
    const ms = SEED_EPOCH + HOUR + i * MINUTE;
    const id = fixedId('brand', ms, slug);
    brandIds.set(slug, id);
    return { id, name, slug, description, logo_url: null, created_at: iso(ms), updated_at: iso(ms) };
  });

  const vendorIds = new Map();
  const vendors = VENDORS.map(([slug, name, email], i) => {
    const ms = SEED_EPOCH + 2 * HOUR + i * MINUTE;
    const id = fixedId('vend', ms, slug);
    vendorIds.set(slug, id);
    return { id, name, slug, email, created_at: iso(ms), updated_at: iso(ms) };
  });

  const lookup = (map, key, what, product) => {
    if (key == null) return null;
    const id = map.get(key);
    if (!id) throw new Error(`seed: product '${product}' names unknown ${what} '${key}'`);
    return id;
  };

  const products = [];
  const variants = [];
  const productCategories = [];
  PRODUCTS.forEach((spec, i) => {
    // One product every 7 hours from day 1, so lists sorted by date have a clear order.
    const ms = SEED_EPOCH + 24 * HOUR + i * 7 * HOUR;
    const slug = slugify(spec.name);
    const id = fixedId('prod', ms, slug);

    const variantSpecs = spec.options
      ? combinations(spec.options).map((options) => {
          const name = Object.values(options).join(' / ');
          let price = spec.price;
          for (const [option, prices] of Object.entries(spec.priceBy ?? {})) {
            if (prices[options[option]] !== undefined) price = prices[options[option]];
          }
          const sku = [spec.sku, ...Object.values(options).map(skuCode)].join('-');
          const stock = spec.stock?.[name] ?? 4 + stableInt(sku, 57);
          return { sku, name, options, price, stock };
        })
      : [{ sku: spec.sku, name: null, options: {}, price: spec.price, stock: spec.simpleStock ?? 4 + stableInt(spec.sku, 57) }];
    const minPrice = Math.min(...variantSpecs.map((v) => v.price));

    // Pictures are uploaded by `npm run dev` (scripts/lib/seed-images.mjs), served by the local Worker: no image URLs to hosts that do not exist.
    const images = [];
    const weight = spec.weight ?? spec.attributes?.weightKg ?? WEIGHT_BY_CATEGORY[spec.categories[0]];
    if (weight === undefined) throw new Error(`seed: no weight for ${spec.name} (category ${spec.categories[0]})`);

    products.push({
      id,
      name: spec.name,
      slug,
      description: spec.description ?? null,
      price: minPrice,
      compare_at_price: spec.compareAtPrice ?? null,
      sku: spec.sku,
      status: spec.status ?? 'active',
      brand_id: lookup(brandIds, spec.brand, 'brand', spec.name),
      vendor_id: lookup(vendorIds, spec.vendor, 'vendor', spec.name),
      images,
      attributes: spec.attributes ?? {},
      low_stock_threshold: spec.lowStockThreshold ?? null,
      created_at: iso(ms),
      updated_at: iso(ms),
    });
    variantSpecs.forEach((v, position) => {
      variants.push({
        id: fixedId('var', ms, v.sku),
        product_id: id,
        sku: v.sku,
        name: v.name,
        options: v.options,
        price: v.price,
        compare_at_price: spec.compareAtPrice != null && v.price === minPrice ? spec.compareAtPrice : null,
        weight,
        stock: v.stock,
        low_stock_threshold: null,
        position,
        created_at: iso(ms),
        updated_at: iso(ms),
      });
    });
    for (const category of spec.categories) {
      productCategories.push({ product_id: id, category_id: lookup(categoryIds, category, 'category', spec.name) });
    }
  });

  // Commerce demo: a few currencies, tax rates and a welcome coupon, so carts show conversion, tax and discounts.
  // Euro and pound prices include VAT, as shops there show them; dollar prices (the store's) have tax added.
  const ts = iso(SEED_EPOCH + 4 * HOUR);
  const currencies = [
    ['EUR', 'Euro', '€', 2, '0.92', 1],
    ['GBP', 'Pound sterling', '£', 2, '0.79', 1],
    ['JPY', 'Japanese yen', '¥', 0, '150.5', null],
  ].map(([code, name, symbol, minor_units, exchange_rate, prices_include_tax]) => ({
    code,
    name,
    symbol,
    minor_units,
    exchange_rate,
    prices_include_tax,
    enabled: 1,
    created_at: ts,
    updated_at: ts,
  }));
  const tax_rates = [
    ['DE', null, 'DE VAT', '19', 1, 'standard'],
    ['DE', null, 'DE VAT, reduced', '7', 0, 'reduced'],
    ['AT', null, 'AT VAT', '20', 1, 'standard'],
    ['AT', null, 'AT VAT, reduced', '10', 0, 'reduced'],
    ['GB', null, 'UK VAT', '20', 1, 'standard'],
    ['US', 'NY', 'New York sales tax', '8.875', 0, 'standard'],
  ].map(([country, region, name, rate, shipping_taxable, tax_class]) => ({
    id: fixedId('tax', SEED_EPOCH + 4 * HOUR, `${country}-${region ?? ''}${tax_class === 'standard' ? '' : `-${tax_class}`}`),
    name,
    country,
    region,
    rate,
    tax_class,
    shipping_taxable,
    created_at: ts,
    updated_at: ts,
  }));
  // A coupon is a promotions row managed through /api/coupons (is_coupon; migration 0070): a code on
  // items (every item: empty include), combining with automatic promotions and not with other codes.
  const promotions = [
    {
      id: fixedId('coup', SEED_EPOCH + 4 * HOUR, 'WELCOME10'),
      name: 'WELCOME10',
      code: 'WELCOME10',
      description: '10% off a first order',
      type: 'percentage',
      value: '10',
      target: 'items',
      min_subtotal: null,
      per_customer_limit: 1,
      combines_with_promotions: 1,
      combines_with_codes: 0,
      is_coupon: 1,
      created_at: ts,
      updated_at: ts,
    },
  ];

  const data = {
    categories,
    brands,
    vendors,
    products,
    product_variants: variants,
    product_categories: productCategories,
    currencies,
    tax_rates,
    promotions,
  };
  assertUnique(data);
  return data;
}

function assertUnique(data) {
  const check = (rows, column, table) => {
    const seen = new Set();
    for (const row of rows) {
      if (row[column] == null) continue;
      if (seen.has(row[column])) throw new Error(`seed: duplicate ${table}.${column} '${row[column]}'`);
      seen.add(row[column]);
    }
  };
  for (const table of ['categories', 'brands', 'vendors', 'products', 'product_variants']) check(data[table], 'id', table);
  for (const table of ['categories', 'brands', 'vendors', 'products']) check(data[table], 'slug', table);
  check(data.products, 'sku', 'products');
  check(data.product_variants, 'sku', 'product_variants');
}

/** Insertion order respects foreign keys (category parents come before their children). */
export const SEED_TABLES = ['categories', 'brands', 'vendors', 'products', 'product_variants', 'product_categories', 'currencies', 'tax_rates', 'promotions'];

/**
 * The store's name, and demo shipping: the "Standard" method of the rest-of-world zone (both made by
 * migration 0050) at 4.95 flat, free from 75.00. The settings row itself comes from a migration.
 */
const SEED_SETTINGS = [
  "UPDATE store_settings SET name = 'Demo Store' WHERE id = 'store';",
  "UPDATE shipping_methods SET rate = json_object('type', 'flat', 'amount', 495), free_above = 7500 WHERE id = 'smeth_standard';",
];

/** The seed as `INSERT OR IGNORE` statements, each a few KB. */
export function buildSeedStatements(data = buildSeedData()) {
  return [...SEED_TABLES.flatMap((table) => insertStatements(table, data[table], { orIgnore: true, chunkSize: 20 })), ...SEED_SETTINGS];
}

export function seedCounts(data = buildSeedData()) {
  return Object.fromEntries(SEED_TABLES.map((table) => [table, data[table].length]));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`-- Demo catalogue (scripts/seed-data.mjs)\n${buildSeedStatements().join('\n\n')}\n`);
}
