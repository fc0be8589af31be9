// The values controller: an express.Router with its actions, mounted by
// server.js at /api/values.
'use strict';

const express = require('express');

const router = express.Router();

// GET /api/values/:id
router.get('/:id', (req, res) => {
  res.type('text/plain').send('value');
});

module.exports = router;
