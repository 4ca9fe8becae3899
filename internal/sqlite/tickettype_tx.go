package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"boxoffice/internal/booking"
)

// The steps' reads and writes of ticket types, price cards and shows'
// price tables (booking.TypesTx). A list is replaced whole: its rows are
// deleted and inserted again in order (position).

const typeColumns = `id, name, note, door_check, accompanied, online, box_office`

func scanType(r scanner) (booking.TicketType, error) {
	var t booking.TicketType
	err := r.Scan(&t.ID, &t.Name, &t.Note, &t.DoorCheck, &t.Accompanied, &t.Online, &t.BoxOffice)
	return t, err
}

func scanCell(r scanner) (booking.PriceCell, error) {
	var c booking.PriceCell
	err := r.Scan(&c.Category, &c.Type, &c.Price)
	return c, err
}

func (t *tx) TicketTypes(theatreID string) ([]booking.TicketType, error) {
	return listRows(t.ctx, t.tx, "ticket types", `SELECT `+typeColumns+` FROM ticket_types WHERE theatre_id = ? ORDER BY position`,
		[]any{theatreID}, func(r *sql.Rows) (booking.TicketType, error) { return scanType(r) })
}

func (t *tx) PutTicketTypes(theatreID string, types []booking.TicketType) error {
	if _, err := t.tx.ExecContext(t.ctx, `DELETE FROM ticket_types WHERE theatre_id = ?`, theatreID); err != nil {
		return err
	}
	for i, ty := range types {
		if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO ticket_types (theatre_id, position, `+typeColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, theatreID, i, ty.ID, ty.Name, ty.Note, ty.DoorCheck, ty.Accompanied, ty.Online, ty.BoxOffice); err != nil {
			return err
		}
	}
	return nil
}

func (t *tx) cardCells(cardID string) (booking.PriceTable, error) {
	return listRows(t.ctx, t.tx, "price card cells", `SELECT category, type_id, price FROM price_card_cells WHERE card_id = ? ORDER BY position`,
		[]any{cardID}, func(r *sql.Rows) (booking.PriceCell, error) { return scanCell(r) })
}

func (t *tx) PriceCards(theatreID string) ([]booking.PriceCard, error) {
	cards, err := listRows(t.ctx, t.tx, "price cards", `SELECT id, theatre_id, name FROM price_cards WHERE theatre_id = ? ORDER BY name, id`,
		[]any{theatreID}, func(r *sql.Rows) (booking.PriceCard, error) {
			var c booking.PriceCard
			err := r.Scan(&c.ID, &c.TheatreID, &c.Name)
			return c, err
		})
	if err != nil {
		return nil, err
	}
	for i := range cards {
		if cards[i].Cells, err = t.cardCells(cards[i].ID); err != nil {
			return nil, err
		}
	}
	return cards, nil
}

func (t *tx) PriceCardByID(id string) (booking.PriceCard, error) {
	var c booking.PriceCard
	err := t.tx.QueryRowContext(t.ctx, `SELECT id, theatre_id, name FROM price_cards WHERE id = ?`, id).Scan(&c.ID, &c.TheatreID, &c.Name)
	if err != nil {
		return c, notFound(err, booking.ErrPriceCardNotFound)
	}
	c.Cells, err = t.cardCells(id)
	return c, err
}

func (t *tx) PutPriceCard(c booking.PriceCard) error {
	if err := t.DeletePriceCardRecord(c.ID); err != nil {
		return err
	}
	if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO price_cards (id, theatre_id, name) VALUES (?, ?, ?)`, c.ID, c.TheatreID, c.Name); err != nil {
		return err
	}
	for i, cell := range c.Cells {
		if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO price_card_cells (card_id, position, category, type_id, price) VALUES (?, ?, ?, ?, ?)`,
			c.ID, i, cell.Category, cell.Type, cell.Price); err != nil {
			return err
		}
	}
	return nil
}

func (t *tx) DeletePriceCardRecord(id string) error {
	for _, q := range []string{`DELETE FROM price_card_cells WHERE card_id = ?`, `DELETE FROM price_cards WHERE id = ?`} {
		if _, err := t.tx.ExecContext(t.ctx, q, id); err != nil {
			return err
		}
	}
	return nil
}

func (t *tx) CountShowsWithType(theatreID, typeID string) (int, error) {
	var n int
	err := t.tx.QueryRowContext(t.ctx, `SELECT count(*) FROM show_types WHERE theatre_id = ? AND id = ?`, theatreID, typeID).Scan(&n)
	return n, err
}

func (t *tx) ShowPrices(showID string) (booking.ShowPrices, error) {
	var p booking.ShowPrices
	var err error
	p.Types, err = listRows(t.ctx, t.tx, "show types", `SELECT `+typeColumns+` FROM show_types WHERE show_id = ? ORDER BY position`,
		[]any{showID}, func(r *sql.Rows) (booking.TicketType, error) { return scanType(r) })
	if err != nil {
		return p, err
	}
	p.Cells, err = listRows(t.ctx, t.tx, "show prices", `SELECT category, type_id, price FROM show_prices WHERE show_id = ? ORDER BY position`,
		[]any{showID}, func(r *sql.Rows) (booking.PriceCell, error) { return scanCell(r) })
	return p, err
}

func (t *tx) PutShowPrices(showID, theatreID string, p booking.ShowPrices) error {
	if err := deleteShowPrices(t, showID); err != nil {
		return err
	}
	for i, ty := range p.Types {
		if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO show_types (show_id, theatre_id, position, `+typeColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, showID, theatreID, i, ty.ID, ty.Name, ty.Note, ty.DoorCheck, ty.Accompanied, ty.Online, ty.BoxOffice); err != nil {
			return err
		}
	}
	for i, c := range p.Cells {
		if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO show_prices (show_id, position, category, type_id, price) VALUES (?, ?, ?, ?, ?)`,
			showID, i, c.Category, c.Type, c.Price); err != nil {
			return err
		}
	}
	return nil
}

// deleteShowPrices deletes a show's table and types (replaced, or with
// the show).
func deleteShowPrices(t *tx, showID string) error {
	for _, q := range []string{`DELETE FROM show_types WHERE show_id = ?`, `DELETE FROM show_prices WHERE show_id = ?`} {
		if _, err := t.tx.ExecContext(t.ctx, q, showID); err != nil {
			return err
		}
	}
	return nil
}

func (t *tx) SetCategoryPrice(showID, cat string, price booking.Money) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE seats SET price = ? WHERE show_id = ? AND category = ?`, price, showID, cat)
	return err
}

func (t *tx) SetTheatreTaxRate(theatreID string, rates booking.TaxRates) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE theatres SET tax_rate = ?, tax_above = ?, tax_rate_above = ? WHERE id = ?`,
		rates.Rate, rates.Above, rates.AboveRate, theatreID)
	return err
}

func (t *tx) ShowTaxRates(showID string) (booking.TaxRates, error) {
	var r booking.TaxRates
	err := t.tx.QueryRowContext(t.ctx, `SELECT th.tax_rate, th.tax_above, th.tax_rate_above
		FROM shows s JOIN theatres th ON th.id = s.theatre_id WHERE s.id = ?`, showID).Scan(&r.Rate, &r.Above, &r.AboveRate)
	if errors.Is(err, sql.ErrNoRows) {
		return booking.TaxRates{}, nil
	}
	return r, err
}

func (t *tx) SetMovieRent(movieID, rent string) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE movies SET rent = ? WHERE id = ?`, rent, movieID)
	return err
}

var _ booking.TypesStore = (*Store)(nil)

// readTx runs f over a read transaction of the read pool: the reads of
// booking.TypesStore are the steps' own, of one snapshot, and take no
// write lock.
func (s *Store) readTx(ctx context.Context, what string, f func(*tx) error) error {
	rtx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("sqlite: %s: %w", what, err)
	}
	defer rtx.Rollback()
	return wrapErr(what, f(&tx{s: s, ctx: ctx, tx: rtx}))
}

// TicketTypes are the theatre's types in order.
func (s *Store) TicketTypes(ctx context.Context, theatreID string) (out []booking.TicketType, err error) {
	err = s.readTx(ctx, "ticket types", func(t *tx) error { out, err = t.TicketTypes(theatreID); return err })
	return out, err
}

// PriceCards are the theatre's price cards with their cells.
func (s *Store) PriceCards(ctx context.Context, theatreID string) (out []booking.PriceCard, err error) {
	err = s.readTx(ctx, "price cards", func(t *tx) error { out, err = t.PriceCards(theatreID); return err })
	return out, err
}

// PriceCard is one price card with its cells.
func (s *Store) PriceCard(ctx context.Context, id string) (out booking.PriceCard, err error) {
	err = s.readTx(ctx, "price card", func(t *tx) error { out, err = t.PriceCardByID(id); return err })
	return out, err
}

// ShowPricing is the show's seats, stored table and theatre's types.
func (s *Store) ShowPricing(ctx context.Context, showID string) (seats []booking.Seat, stored booking.ShowPrices, types []booking.TicketType, err error) {
	err = s.readTx(ctx, "show pricing", func(t *tx) error {
		show, err := t.ShowByID(showID)
		if err != nil {
			return err
		}
		if seats, err = t.AllSeats(showID); err != nil {
			return err
		}
		booking.SortSeatsByPlace(seats)
		if stored, err = t.ShowPrices(showID); err != nil {
			return err
		}
		types, err = t.TicketTypes(show.Theatre.ID)
		return err
	})
	return seats, stored, types, err
}

// pricingColumns are what Store.SeatPricing reads of a seat.
const pricingColumns = `seat_id, grid_row, grid_col, category, price`

// SeatPricing is the show's seats among seatIDs, in map order, and its
// stored table: a read of those seats by primary key (seatPricing) and of
// the table, not of the show's every seat. A show's seats are inserted
// with it, so the show is looked up only when none is found.
func (s *Store) SeatPricing(ctx context.Context, showID string, seatIDs []string) (seats []booking.Seat, stored booking.ShowPrices, err error) {
	err = s.readTx(ctx, "seat pricing", func(t *tx) error {
		if len(seatIDs) > 0 {
			if seats, err = t.pricingSeats(showID, seatIDs); err != nil {
				return err
			}
		}
		if len(seats) == 0 {
			if _, err := t.ShowByID(showID); err != nil {
				return err
			}
		}
		stored, err = t.ShowPrices(showID)
		return err
	})
	return seats, stored, err
}

// pricingSeats are the show's seats among ids, their pricingColumns, in
// map order.
func (t *tx) pricingSeats(showID string, ids []string) ([]booking.Seat, error) {
	rows, err := t.stmt(t.s.stmts.seatPricing).QueryContext(t.ctx, showID, idsJSON(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	seats := make([]booking.Seat, 0, len(ids))
	for rows.Next() {
		st := booking.Seat{ShowID: showID}
		var price int64
		if err := rows.Scan(&st.ID, &st.GridRow, &st.GridCol, &st.Category, &price); err != nil {
			return nil, err
		}
		st.Price = booking.Money(price)
		seats = append(seats, st)
	}
	return seats, rows.Err()
}
