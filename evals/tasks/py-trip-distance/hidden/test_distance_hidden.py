from distance import format_km, parse_distance, trip_total


def test_more_trips():
    assert trip_total(["3 km"]) == "3.0 km"
    assert trip_total(["750 m", "750 m"]) == "1.5 km"
    assert trip_total(["4 km", "1 km", "200 m"]) == "5.2 km"


def test_parse_and_format():
    assert parse_distance("4 km") == 4000
    assert parse_distance("40 m") == 40
    assert format_km(1234) == "1.2 km"
