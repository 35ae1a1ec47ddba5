import type { FastifyInstance } from 'fastify';
import passwordStrengthRoute from './password-strength-route.js';
import qrcodeRoute from './qrcode-route.js';
import barcodeRoute from './barcode-route.js';
import colorConvertRoute from './color-convert-route.js';
import paletteRoute from './palette-route.js';

/** Endpoints of the "toolbox" group; each file registers one route through lookupRoute. */
export default async function toolboxGroup(app: FastifyInstance) {
  await app.register(passwordStrengthRoute);
  await app.register(qrcodeRoute);
  await app.register(barcodeRoute);
  await app.register(colorConvertRoute);
  await app.register(paletteRoute);
}
