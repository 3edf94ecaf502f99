//! The position notation and move lists: a table of good and bad inputs with the error each
//! must give, and a fuzz-style run of random and mutated strings that must never panic.

use awari::rng::Rng;
use awari::rules::{parse_move_list, Board, Game, MovesError, NotationErrorKind as K, Variant};

#[test]
fn good_notation_parses_and_prints_back() {
    let rows = [
        (Variant::Oware, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"),
        (Variant::Oware, "1-0-0-0-0-0-1-0-0-0-2-0-22-22-N"),
        (Variant::Ahl, "3-3-3-0-4-4-3-3-3-3-3-3-1-0-S+"),
        (Variant::Awari, "0-1-0-3-2-4-1-0-0-0-5-0-8-24-S-120"),
        (Variant::Kalah, "21-21-21-21-21-21-21-21-21-21-21-21-0-3-N"),
    ];
    for (variant, text) in rows {
        let b = Board::from_notation(variant, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(b.to_string(), text);
    }
    // Surrounding whitespace is ignored; the start position is Aualé's.
    let b = Board::from_notation(Variant::Oware, "  4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\r\n").unwrap();
    assert_eq!(b, Board::start(Variant::Oware));
    // The ply shows only once awari play has started.
    let mut g = Game::new(Board::start(Variant::Awari));
    g.play_text("F").unwrap();
    assert_eq!(g.board().to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N-1");
    let mut g = Game::new(Board::start(Variant::Oware));
    g.play_text("F").unwrap();
    assert_eq!(g.board().to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
}

#[test]
fn bad_notation_says_what_and_where() {
    // (input, variant, field, column, kind)
    let rows = [
        ("", Variant::Oware, 0, 1, K::FieldCount(1)),
        (
            "4-4-4-4-4-4-4-4-4-4-4-4-0-S",
            Variant::Oware,
            0,
            1,
            K::FieldCount(14),
        ),
        (
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-1-2",
            Variant::Oware,
            0,
            1,
            K::FieldCount(17),
        ),
        (
            "4-4-x-4-4-4-4-4-4-4-4-4-0-0-S",
            Variant::Oware,
            3,
            5,
            K::NotANumber("x".into()),
        ),
        (
            "4-4-4-4-4-4-4-4-4-4-4-4--0-S",
            Variant::Oware,
            13,
            25,
            K::EmptyField,
        ),
        (
            "4-4-4-4-4-4-4-4-4-4-4-+4-0-0-S",
            Variant::Oware,
            12,
            23,
            K::NotANumber("+4".into()),
        ),
        (
            "4-4-4-4-4-4-4-4-4-4-4-256-0-0-S",
            Variant::Oware,
            12,
            23,
            K::TooManyInOne("256".into()),
        ),
        (
            "4-4-4-4-4-4-4-4-4-4-4-99999999999999999999999-0-0-S",
            Variant::Oware,
            12,
            23,
            K::TooManyInOne("99999999999999999999999".into()),
        ),
        (
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-W",
            Variant::Oware,
            15,
            29,
            K::BadSide("W".into()),
        ),
        (
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-s",
            Variant::Oware,
            15,
            29,
            K::BadSide("s".into()),
        ),
        (
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S+",
            Variant::Oware,
            15,
            29,
            K::Setup(awari::rules::SetupError::BonusNotInVariant(Variant::Oware)),
        ),
        (
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-3",
            Variant::Oware,
            16,
            31,
            K::PlyNotInVariant(Variant::Oware),
        ),
        (
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-70000",
            Variant::Awari,
            16,
            31,
            K::PlyTooLarge("70000".into()),
        ),
        (
            "200-200-0-0-0-0-0-0-0-0-0-0-0-0-S",
            Variant::Oware,
            0,
            1,
            K::Setup(awari::rules::SetupError::TooManySeeds(400)),
        ),
    ];
    for (text, variant, field, column, kind) in &rows {
        let err = Board::from_notation(*variant, text).expect_err(text);
        assert_eq!(
            (err.field, err.column, &err.kind),
            (*field, *column, kind),
            "{text}"
        );
        let message = err.to_string();
        assert!(message.len() > 20, "{text}: terse message {message:?}");
    }
    // Non-ASCII text: columns count characters, not bytes.
    let err = Board::from_notation(Variant::Oware, "é-4-4-4-4-4-4-4-4-4-4-4-0-0-S").unwrap_err();
    assert_eq!((err.field, err.column), (1, 1));
    let err = Board::from_notation(Variant::Oware, "4-é-4-4-4-4-4-4-4-4-4-4-0-0-S").unwrap_err();
    assert_eq!((err.field, err.column), (2, 3));
    let err = Board::from_notation(Variant::Oware, "é-é-x-4-4-4-4-4-4-4-4-4-0-0-S").unwrap_err();
    assert_eq!(err.field, 1);
}

#[test]
fn move_lists_with_or_without_spaces() {
    let joined = parse_move_list("FfEa").unwrap();
    assert_eq!(parse_move_list("F f E a").unwrap(), joined);
    assert_eq!(parse_move_list(" F\tf  E a\n").unwrap(), joined);
    assert_eq!(awari::rules::format_move_list(&joined), "FfEa");
    assert_eq!(parse_move_list("").unwrap(), vec![]);
    let err = parse_move_list("FfGa").unwrap_err();
    assert_eq!((err.offset, err.found), (2, 'G'));
    assert!(err.to_string().contains("character 3"));
    let err = parse_move_list("Ff,Ea").unwrap_err();
    assert_eq!(err.found, ',');
}

#[test]
fn a_bad_move_list_changes_nothing() {
    let mut g = Game::new(Board::start(Variant::Oware));
    g.play_text("Ff").unwrap();
    let before = g.clone();
    // Third move is North's `a` when South is to move.
    match g.play_text("EeaB") {
        Err(MovesError::Illegal { index, error }) => {
            assert_eq!(index, 2);
            assert_eq!(error.mv.to_char(), 'a');
            assert!(error.to_string().contains("North's house"), "{error}");
        }
        other => panic!("expected an illegal move, got {other:?}"),
    }
    assert_eq!(g, before);
    assert!(matches!(g.play_text("Ee?"), Err(MovesError::Parse(_))));
    assert_eq!(g, before);
    // A move after the game ended.
    let mut over =
        Game::new(Board::from_notation(Variant::Oware, "0-0-0-0-0-3-0-0-0-0-1-0-25-19-N").unwrap());
    let err = over.play_text("e").unwrap_err();
    assert!(err.to_string().contains("game is over"), "{err}");
}

/// Random strings and mutations of valid ones: parsing returns, and whatever parses prints
/// back to text that parses to the same board.
#[test]
fn fuzzed_text_never_panics() {
    const ALPHABET: &[char] = &[
        '0', '1', '2', '3', '4', '5', '9', '-', '-', '-', 'S', 'N', '+', ' ', '\t', 'a', 'F', 'é',
        '\u{0}', '9', '2', '5', '5', '6',
    ];
    let seeds = [
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "3-3-3-0-4-4-3-3-3-3-3-3-1-0-S+",
        "0-1-0-3-2-4-1-0-0-0-5-0-8-24-S-120",
    ];
    let mut rng = Rng::new(42);
    let mut parsed = 0;
    for i in 0..40_000 {
        let text: String = if i % 2 == 0 {
            let len = rng.below(48) as usize;
            (0..len)
                .map(|_| ALPHABET[rng.below(ALPHABET.len() as u64) as usize])
                .collect()
        } else {
            let mut chars: Vec<char> = seeds[rng.below(3) as usize].chars().collect();
            for _ in 0..=rng.below(3) {
                let at = rng.below(chars.len() as u64 + 1) as usize;
                let c = ALPHABET[rng.below(ALPHABET.len() as u64) as usize];
                match rng.below(3) {
                    0 if at < chars.len() => chars[at] = c,
                    1 if at < chars.len() => {
                        chars.remove(at);
                    }
                    _ => chars.insert(at, c),
                }
            }
            chars.into_iter().collect()
        };
        for variant in Variant::ALL {
            if let Ok(b) = Board::from_notation(variant, &text) {
                parsed += 1;
                assert_eq!(
                    Board::from_notation(variant, &b.to_string()),
                    Ok(b),
                    "{text:?}"
                );
                let _ = b.status();
            }
        }
        let _ = parse_move_list(&text);
        let mut g = Game::new(Board::start(Variant::Oware));
        let _ = g.play_text(&text);
    }
    assert!(
        parsed > 1000,
        "the fuzzer hardly produced valid positions ({parsed})"
    );
}
